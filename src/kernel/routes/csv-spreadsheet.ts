import type { Db } from '../../db/database.js';

/*
 * The spreadsheet-friendly form of a list's CSV export, asked for with
 * `Accept: text/csv; profile=spreadsheet`: what a person reads in a spreadsheet
 * instead of what a program reads. Names instead of ids (plants, explants, rooms,
 * people, SOPs), stage display names, times in the lab's time zone, one column per
 * custom field, and column headers in words. The raw form (`text/csv` alone) is
 * unchanged; the cells of both are neutralised the same way (routes/csv.ts).
 */

/** The kinds of record whose ids the friendly form names. */
export type NamedKind = 'member' | 'room' | 'plant' | 'explant' | 'sop';

/** What the friendly form needs of a lab, read once per export (names per page). */
export interface SpreadsheetLab {
  /** The lab's IANA time zone. */
  readonly timeZone: string;
  /** The lab's custom field keys for a kind of record (`plant`, …), in order. */
  customFields(entity: string): readonly string[];
  /** A stage's display name (retired stages too). */
  stageName(entity: string, key: string): string | undefined;
  /** Reads the names of these records, before the rows that name them are written. */
  load(ids: ReadonlyMap<NamedKind, ReadonlySet<string>>): Promise<void>;
  /** The name of a record read by `load` (or always known: people, rooms). */
  nameOf(kind: NamedKind, id: string): string | undefined;
}

/** How the kernel reaches a lab's names (the wiring builds it from the modules). */
export interface SpreadsheetSource {
  open(db: Db, workspaceId: string): Promise<SpreadsheetLab>;
}

/** Whether the Accept header asks for CSV in its spreadsheet profile. */
export function wantsSpreadsheet(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    return (
      type === 'text/csv' &&
      params.some((param) => param.replace(/\s|"/g, '') === 'profile=spreadsheet')
    );
  });
}

/** Fields naming a member of the workspace. */
const MEMBER_FIELDS = new Set([
  'created_by',
  'archived_by',
  'recorded_by',
  'assigned_to',
  'completed_by',
  'resolved_by',
  'logged_by',
  'member_id',
  'startedBy',
  'recordedBy',
]);
const ID_FIELDS: Readonly<Record<string, NamedKind>> = {
  room_id: 'room',
  plant_id: 'plant',
  plantId: 'plant',
  explant_id: 'explant',
  explantId: 'explant',
  sop_id: 'sop',
  sopId: 'sop',
};
/** Fields listing records: their names, joined. */
const ID_LIST_FIELDS: Readonly<Record<string, NamedKind>> = {
  plant_ids: 'plant',
  explant_ids: 'explant',
};
/** The kind of record of each list whose custom fields get a column each. */
const LIST_ENTITY: Readonly<Record<string, string>> = {
  plants: 'plant',
  explants: 'explant',
  contaminations: 'contamination',
  transfers: 'transfer',
};

const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** `created_at` -> `Created at`, `plantletCount` -> `Plantlet count`, `external_id` -> `External ID`. */
function words(field: string): string {
  const text = field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase()
    .replace(/\bid\b/g, 'ID');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** An instant as the lab's clock shows it: `2026-03-01 10:00:00`. */
function localTime(format: Intl.DateTimeFormat, value: string): string {
  const parts = Object.fromEntries(
    format.formatToParts(new Date(value)).map((part) => [part.type, part.value]),
  );
  const hour = parts.hour === '24' ? '00' : parts.hour;
  return `${parts.year}-${parts.month}-${parts.day} ${hour}:${parts.minute}:${parts.second}`;
}

interface Column {
  readonly header: string;
  readonly value: (record: Record<string, unknown>) => unknown;
}

/** The record an `entity_id` names, by its `entity_type`, when the friendly form names it. */
const entityKind = (record: Record<string, unknown>): NamedKind | null =>
  record.entity_type === 'plant' || record.entity_type === 'explant' ? record.entity_type : null;

/** Whose stage list a record's `stage` is in: its entity's, or that of the records it names. */
function stageEntity(record: Record<string, unknown>): string | null {
  if (typeof record.entity_type === 'string') return record.entity_type;
  const some = (field: string) => Array.isArray(record[field]) && record[field].length > 0;
  return some('explant_ids') ? 'explant' : some('plant_ids') ? 'plant' : null;
}

/** The columns of a list's friendly form: from its item's fields, expanded and named. */
function columnsOf(fields: readonly string[], list: string, lab: SpreadsheetLab): Column[] {
  const zone = ` (${lab.timeZone})`;
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone: lab.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const plain = (value: unknown) =>
    typeof value === 'string' && ZONED.test(value) ? localTime(format, value) : value;
  const timed = (field: string) => /(_at|At|_on)$/.test(field);
  const name = (kind: NamedKind, value: unknown) =>
    typeof value === 'string' ? (lab.nameOf(kind, value) ?? value) : value;
  const columns: Column[] = [];
  for (const field of fields) {
    if (field === 'custom_fields' && LIST_ENTITY[list] !== undefined) {
      for (const key of lab.customFields(LIST_ENTITY[list])) {
        columns.push({
          header: words(key),
          value: (record) => (record.custom_fields as Record<string, unknown> | null)?.[key],
        });
      }
      continue;
    }
    if (field === 'current_stage') {
      const stage = (record: Record<string, unknown>) =>
        record.current_stage as { name?: string; entered_on?: string; room_id?: string } | null;
      columns.push(
        { header: 'Stage', value: (record) => stage(record)?.name },
        { header: `In stage since${zone}`, value: (record) => plain(stage(record)?.entered_on) },
        { header: 'Room', value: (record) => name('room', stage(record)?.room_id) },
      );
      continue;
    }
    if (MEMBER_FIELDS.has(field)) {
      columns.push({ header: words(field), value: (record) => name('member', record[field]) });
      continue;
    }
    const kind = ID_FIELDS[field];
    if (kind !== undefined) {
      columns.push({ header: words(kind), value: (record) => name(kind, record[field]) });
      continue;
    }
    if (field === 'workspace_id') continue;
    const listed = ID_LIST_FIELDS[field];
    if (listed !== undefined) {
      columns.push({
        header: words(`${listed}s`),
        value: (record) =>
          Array.isArray(record[field])
            ? (record[field] as unknown[]).map((id) => name(listed, id)).join('; ')
            : record[field],
      });
      continue;
    }
    if (field === 'entity_id') {
      columns.push({
        header: 'Record',
        value: (record) => {
          const of = entityKind(record);
          return of === null ? record.entity_id : name(of, record.entity_id);
        },
      });
      continue;
    }
    if (field === 'stage') {
      columns.push({
        header: 'Stage',
        value: (record) => {
          const entity = stageEntity(record);
          return typeof record.stage === 'string' && entity !== null
            ? (lab.stageName(entity, record.stage) ?? record.stage)
            : record.stage;
        },
      });
      continue;
    }
    columns.push({
      header: timed(field) ? `${words(field)}${zone}` : words(field),
      value: (record) => plain(record[field]),
    });
  }
  return columns;
}

/** The ids a page's records name, by kind, for `SpreadsheetLab.load`. */
function namedIds(fields: readonly string[], items: readonly unknown[]) {
  const ids = new Map<NamedKind, Set<string>>();
  const add = (kind: NamedKind | null, value: unknown) => {
    if (kind === null || typeof value !== 'string') return;
    if (!ids.has(kind)) ids.set(kind, new Set());
    ids.get(kind)!.add(value);
  };
  for (const item of items) {
    const record = item as Record<string, unknown>;
    for (const field of fields) {
      if (ID_FIELDS[field] !== undefined) add(ID_FIELDS[field], record[field]);
      const listed = ID_LIST_FIELDS[field];
      if (listed !== undefined && Array.isArray(record[field])) {
        for (const id of record[field] as unknown[]) add(listed, id);
      }
      if (field === 'entity_id') add(entityKind(record), record.entity_id);
    }
  }
  return ids;
}

/** The layout sendCsv writes a friendly export with: its header and each record's cells. */
export interface CsvLayout {
  readonly header: readonly string[];
  /** Called with each page before its rows are written (names to read). */
  page(items: readonly unknown[]): Promise<void>;
  row(record: Record<string, unknown>): unknown[];
}

/** The friendly layout of a list whose items have these fields. */
export function spreadsheetLayout(
  fields: readonly string[],
  list: string,
  lab: SpreadsheetLab,
): CsvLayout {
  const columns = columnsOf(fields, list, lab);
  return {
    header: columns.map((column) => column.header),
    page: (items) => lab.load(namedIds(fields, items)),
    row: (record) => columns.map((column) => column.value(record)),
  };
}
