import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseImportFile } from '../../src/modules/import/index.js';
import { DEMO_FILE_IDS, DEMO_FILE_WRITTEN_AT } from '../../src/modules/demo/demo.data.js';
import { REPO_ROOT } from '../support/node-script.js';

// The demo lab's data is an import file of the documented format, read here as
// `vitro import --file` would read it.
const FILE = join(REPO_ROOT, 'src', 'modules', 'demo', 'demo-lab.json');
const text = readFileSync(FILE, 'utf8');

describe('src/modules/demo/demo-lab.json', () => {
  it('passes the import file validation on its own', () => {
    const file = parseImportFile(JSON.parse(text));
    expect(file.rooms).toHaveLength(3);
    expect(file.sops).toHaveLength(3);
    expect(file.equipment).toHaveLength(6);
    expect(file.labels).toHaveLength(6);
    expect(file.culture_line_prices).toHaveLength(5);
    expect(file.price_events).toHaveLength(5);
    expect(file.order_lines).toHaveLength(100);
  });

  it('refuses a changed copy the way vitro import would', () => {
    const file = JSON.parse(text) as { rooms: Record<string, unknown>[] };
    file.rooms[0]!.room_name = 'Growth Room A';
    expect(() => parseImportFile(file)).toThrow('rooms[0]: unknown key "room_name"');
  });

  it('uses as ids only the placeholders the demo lab replaces, among them every one its code names', () => {
    const ids = new Set(
      text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi),
    );
    for (const id of ids) expect(id).toMatch(/^00000000-0000-4000-8000-000000000\d{3}$/);
    const named = Object.values(DEMO_FILE_IDS).flatMap((group) => Object.values(group));
    for (const id of named) expect(ids).toContain(id);
  });

  it('is dated before the instant it is shifted from, so a loaded lab lies in the past', () => {
    const stamps = text.match(/\d{4}-\d{2}-\d{2}T[^"]+/g) ?? [];
    expect(stamps.length).toBeGreaterThan(100);
    for (const stamp of stamps) {
      expect(Date.parse(stamp)).toBeLessThan(Date.parse(DEMO_FILE_WRITTEN_AT));
    }
  });
});
