import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../cli/support.js';

/**
 * Imports of the console linted with the project's own ESLint configuration as if they
 * were the text of a file of `web/src/`. Only the web-floors rule's findings are read.
 */
async function floorsFindings(filePath: string, code: string): Promise<number[]> {
  const eslint = new ESLint({ cwd: REPO_ROOT });
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter((message) => message.ruleId === 'web/floors')
    .map((message) => message.line);
}

describe("the console's floors lint rule", { timeout: 180_000 }, () => {
  it('refuses ui/, forms/ and api/ an import of a feature or of the app', async () => {
    for (const file of ['web/src/ui/parts.tsx', 'web/src/forms/form.ts', 'web/src/api/client.ts']) {
      const lines = await floorsFindings(
        file,
        [
          "import { strings } from '../features/admin/strings';",
          "export const late = () => import('../app/screens');",
          "import { api } from '../api/client';",
          'export const reached = [strings, api];',
          '',
        ].join('\n'),
      );
      expect(lines, file).toEqual([1, 2]);
    }
  });

  it('refuses a feature the app; another feature and the floors below are fine', async () => {
    const lines = await floorsFindings(
      'web/src/features/rooms/room.tsx',
      [
        "import { NAVIGATION } from '../../app/screens';",
        "import { SensorReadings } from '../sensors/readings';",
        "import { More } from '../../ui/parts';",
        "import { useApiForm } from '../../forms/form';",
        'export const reached = [NAVIGATION, SensorReadings, More, useApiForm];',
        '',
      ].join('\n'),
    );
    expect(lines).toEqual([1]);
  });

  it('lets the app import every floor, and refuses api/ the floors above it', async () => {
    expect(
      await floorsFindings(
        'web/src/app/app.tsx',
        "import { strings } from '../features/admin/strings';\nexport const s = strings;\n",
      ),
    ).toEqual([]);
    expect(
      await floorsFindings(
        'web/src/api/session.tsx',
        "import { More } from '../ui/parts';\nexport const m = More;\n",
      ),
    ).toEqual([1]);
  });
});
