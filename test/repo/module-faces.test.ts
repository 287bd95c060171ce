import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../cli/support.js';

/**
 * Code that reaches into other modules, linted with the project's own ESLint
 * configuration (the one `npm run lint` and CI use) as if it were the text of a
 * file of `src/`. Only the module-faces rule's findings are read.
 */
async function facesFindings(filePath: string, code: string): Promise<number[]> {
  const eslint = new ESLint({ cwd: REPO_ROOT });
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter((message) => message.ruleId === 'vitro/module-faces')
    .map((message) => message.line);
}

describe('the module-faces lint rule', { timeout: 180_000 }, () => {
  it("refuses another module's repository, schemas and services; its face is fine", async () => {
    const lines = await facesFindings(
      'src/modules/demo/demo.photos.ts',
      [
        "import { assets } from '../assets/assets.repository.js';",
        "import { Asset } from '../assets/assets.schemas.js';",
        "import { insertAsset } from '../assets/index.js';",
        "export { createPlant } from '../plants/plants.service.js';",
        "import { demoPng } from './demo.photos.js';",
        'export const reached = [assets, Asset, insertAsset, demoPng];',
        '',
      ].join('\n'),
    );
    expect(lines).toEqual([1, 2, 4]);
  });

  it('holds outside the modules too, for dynamic imports as well', async () => {
    const lines = await facesFindings(
      'src/cli/present.ts',
      [
        "export const late = () => import('../modules/import/import.service.js');",
        "export const face = () => import('../modules/import/index.js');",
        '',
      ].join('\n'),
    );
    expect(lines).toEqual([1]);
  });

  it("lets the wiring import each module's routes, and nothing else inside a module", async () => {
    const lines = await facesFindings(
      'src/modules/index.ts',
      [
        "export { registerPlantRoutes } from './plants/plants.routes.js';",
        "export { plants } from './plants/plants.repository.js';",
        '',
      ].join('\n'),
    );
    expect(lines).toEqual([2]);
  });
});
