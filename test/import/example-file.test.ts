import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { cliTargets, REPO_ROOT, runInProcess } from '../cli/support.js';
import { countRows, snapshot } from './fixtures.js';

const EXAMPLE = join(REPO_ROOT, 'docs', 'examples', 'lab-import.json');

describe.each(cliTargets())(
  'docs/examples/lab-import.json through vitro import on $name',
  (target) => {
    let env: Record<string, string>;
    let database: Database;
    beforeAll(async () => {
      env = target.env();
      expect((await runInProcess(env, 'migrate')).code).toBe(0);
      database = openDatabase(loadConfig(env).database);
    });
    afterAll(() => database.close());

    it('loads into a fresh workspace, and a second import changes nothing', async () => {
      const created = await runInProcess(env, 'workspace', 'create', '--name', 'Fresh lab');
      const workspaceId = created.out.id as string;
      const file = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as Record<string, unknown[]>;

      const first = await runInProcess(
        env,
        'import',
        '--workspace',
        workspaceId,
        '--file',
        EXAMPLE,
      );
      expect(first).toMatchObject({ code: 0, stderr: '' });
      expect(first.out.imported).toMatchObject({
        workspace: 1,
        stages: 13,
        custom_fields: file.custom_fields!.length,
        rooms: file.rooms!.length,
        sops: file.sops!.length,
        sop_versions: 3,
        equipment: file.equipment!.length,
        labels: file.labels!.length,
        order_lines: file.order_lines!.length,
      });
      const counts = await countRows(database.db, workspaceId);
      expect(counts).toMatchObject({
        rooms: 3,
        stage_definitions: 13,
        custom_field_definitions: 7,
        sops: 2,
        sop_versions: 3,
        equipment: 3,
        labels: 1,
        order_lines: 2,
      });
      const workspace = await database.db
        .selectFrom('workspaces')
        .select(['name', 'device_allowance'])
        .where('id', '=', workspaceId)
        .executeTakeFirstOrThrow();
      expect(workspace).toEqual({ name: 'Riverside Plant Lab', device_allowance: 20 });

      const before = await snapshot(database.db, workspaceId);
      const second = await runInProcess(
        env,
        'import',
        '--workspace',
        workspaceId,
        '--file',
        EXAMPLE,
      );
      expect(second).toMatchObject({ code: 0, out: first.out });
      expect(await snapshot(database.db, workspaceId)).toEqual(before);
    });
  },
);
