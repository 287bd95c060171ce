import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../cli/support.js';
import { sqliteTarget } from '../support/harness.js';
import { appSuite } from '../support/suite.js';

/** Component schemas every client should get a named type for (a record, or an envelope part). */
const NAMED = ['Error', 'PageMeta', 'Me', 'Workspace', 'Plant', 'Explant', 'Stage', 'ChangeEvent'];

interface Document {
  info: { license?: { name: string } };
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, { tags: string[]; description?: string }>>;
  components: { schemas: Record<string, unknown> };
}

/** The served document is good input for client generators (openapi-typescript, Redocly). */
describe('OpenAPI document for client generators', () => {
  const { t } = appSuite(sqliteTarget());
  let text: string;
  let doc: Document;
  beforeAll(async () => {
    text = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).body;
    doc = JSON.parse(text) as Document;
  });

  it('names records, the page meta and the error envelope as components and refers to them', () => {
    for (const name of NAMED) expect(doc.components.schemas, name).toHaveProperty(name);
    const inlineErrors = text.split('"enum":[false]').length - 1;
    expect(inlineErrors).toBe(1);
    expect(text).toContain('"$ref":"#/components/schemas/Plant"');
  });

  it('describes every tag it lists, lists only tags in use, and carries a license', () => {
    const used = new Set(
      Object.values(doc.paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags)),
    );
    expect(doc.tags.map((tag) => tag.name).sort()).toEqual([...used].sort());
    for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy();
    expect(doc.info.license?.name).toBe('MIT');
  });

  it('says in each operation which scope, role and plan it needs', () => {
    const createPlant = doc.paths['/api/v1/plants']!.post!;
    expect(createPlant.description).toContain('**Scope:** `write:plants`');
    expect(createPlant.description).toContain("**Minimum role of the key's owner:** member");
    expect(createPlant.description).toContain('**Plan:** Teams or Enterprise');
    expect(doc.paths['/api/v1/me']!.get!.description).toContain('**Scope:** none');
  });

  it('generates a named TypeScript type for every record with openapi-typescript', async () => {
    const source = astToString(await openapiTS(text));
    for (const name of NAMED) expect(source, name).toMatch(new RegExp(`\\n\\s+${name}: \\{`));
    expect(source).toMatch(/Plant: \{[^}]*species: string;/);
  });

  it('passes Redocly lint (recommended rules) with no error and no warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vitro-openapi-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, text);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(REPO_ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', file, '--format=json'],
      {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: { message: string }[];
    };
    expect(report.problems.map((p) => p.message)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);
});
