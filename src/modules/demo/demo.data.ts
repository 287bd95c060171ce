import type { Trx } from '../../db/database.js';
import { newId } from '../../kernel/ids.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { applyImport, parseImportFile } from '../import/index.js';
import demoLab from './demo-lab.json' with { type: 'json' };
import type { DemoEquipmentKey } from './demo.equipment.js';
import type { DemoRoomKey } from './demo.records.js';

/*
 * The demo lab's library data is an ordinary import file, demo-lab.json (the
 * format of docs/import.md): custom fields, rooms, SOPs, equipment, labels,
 * prices, price changes and a month of store order lines. Two things make one
 * file serve every demo lab, whenever it is created:
 *
 * - Dates. The file is dated as if written at DEMO_FILE_WRITTEN_AT; loading it
 *   moves every timestamp by (now − that instant), so the lab is always "a few
 *   months old". Dates without a time (purchase dates) stay as written.
 * - Ids. Ids are unique across workspaces, so the file's ids are placeholders
 *   (00000000-0000-4000-8000-000000000NNN): loading gives each a fresh id for
 *   this lab, handed out in the order of the placeholders so records keep the
 *   order the file gives them. Plants and explants cannot be imported; the code
 *   steps create them, and the sections naming them (labels, prices, order
 *   lines) load afterwards with each placeholder replaced by the created id.
 */

/** The "now" the timestamps of demo-lab.json are counted back from. */
export const DEMO_FILE_WRITTEN_AT = '2026-01-01T03:00:00Z';

/** The placeholders demo-lab.json uses for the records the code steps refer to. */
const placeholder = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const DEMO_FILE_IDS = {
  rooms: { growthA: placeholder(101), growthB: placeholder(102), mediaPrep: placeholder(103) },
  sops: { subculture: placeholder(201), media: placeholder(202) },
  equipment: {
    autoclave: placeholder(301),
    hood: placeholder(302),
    balance: placeholder(303),
    phMeter: placeholder(304),
    lightRack: placeholder(305),
    oldCooker: placeholder(306),
  },
  plants: {
    monstera: placeholder(401),
    alocasia: placeholder(402),
    philodendron: placeholder(403),
    anthurium: placeholder(404),
    banana: placeholder(405),
  },
  explants: {
    'monstera-b01': placeholder(501),
    'alocasia-b03': placeholder(502),
    'anthurium-b01': placeholder(503),
  },
} as const;

/** The ids the demo lab gives its SOPs, so that it can run them after the import. */
export type DemoSopIds = Record<keyof typeof DEMO_FILE_IDS.sops, string>;

/** The lab's ids of the imported records the code steps refer to. */
export interface DemoLibraryIds {
  rooms: Record<DemoRoomKey, string>;
  sopIds: DemoSopIds;
  equipment: Record<DemoEquipmentKey, string>;
}

/** The sections that name plants and explants: they load once the code steps made them. */
const LATER_SECTIONS = ['labels', 'culture_line_prices', 'price_events', 'order_lines'] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** Every string of a JSON value, in document order. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

/** A copy of a JSON value with each string passed through `map`. */
function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, map)]));
  }
  return value;
}

/**
 * Part of demo-lab.json made this lab's: its ids replaced (`known` first, then
 * fresh ones, recorded in `ids`) and its timestamps moved to `now`.
 */
function labPart(
  sections: readonly string[],
  keep: boolean,
  ids: Map<string, string>,
  now: Date,
): unknown {
  const part = Object.fromEntries(
    Object.entries(demoLab).filter(([section]) => sections.includes(section) === keep),
  );
  const placeholders = [...new Set(stringsOf(part).filter((s) => UUID.test(s)))].sort();
  for (const id of placeholders) if (!ids.has(id)) ids.set(id, newId());
  const shift = now.getTime() - Date.parse(DEMO_FILE_WRITTEN_AT);
  return mapStrings(part, (text) => {
    if (UUID.test(text)) return ids.get(text)!;
    if (TIMESTAMP.test(text)) return new Date(Date.parse(text) + shift).toISOString();
    return text;
  });
}

const labIds = <K extends string>(placeholders: Record<K, string>, ids: Map<string, string>) =>
  Object.fromEntries(
    Object.entries<string>(placeholders).map(([key, id]) => [key, ids.get(id)!]),
  ) as Record<K, string>;

/**
 * Imports the sections of demo-lab.json that need no plants (custom fields,
 * rooms, SOPs, equipment); returns the ids they got in this lab.
 */
export async function importDemoLibrary(
  trx: Trx,
  workspaceId: string,
  records: RecordLookup,
  now: Date,
): Promise<DemoLibraryIds> {
  const ids = new Map<string, string>();
  const file = parseImportFile(labPart(LATER_SECTIONS, false, ids, now));
  await applyImport(trx, workspaceId, file, records, now.toISOString());
  return {
    rooms: labIds(DEMO_FILE_IDS.rooms, ids),
    sopIds: labIds(DEMO_FILE_IDS.sops, ids),
    equipment: labIds(DEMO_FILE_IDS.equipment, ids),
  };
}

/**
 * Imports the sections of demo-lab.json that name plants and explants (labels,
 * prices, price changes, order lines), given the ids the lab's plants and
 * explants were created with, by their keys in demo.records.ts.
 */
export async function importDemoSales(
  trx: Trx,
  workspaceId: string,
  created: { plants: Record<string, string>; explants: Record<string, string> },
  records: RecordLookup,
  now: Date,
): Promise<void> {
  const ids = new Map<string, string>();
  for (const kind of ['plants', 'explants'] as const) {
    for (const [key, id] of Object.entries<string>(DEMO_FILE_IDS[kind])) {
      const labId = created[kind][key];
      if (labId === undefined) throw new Error(`demo lab: no ${kind} "${key}" was created`);
      ids.set(id, labId);
    }
  }
  const file = parseImportFile(labPart(LATER_SECTIONS, true, ids, now));
  await applyImport(trx, workspaceId, file, records, now.toISOString());
}
