import { CompiledQuery } from 'kysely';
import { sqliteHandleOf, type Db, type Trx } from '../../db/database.js';
import {
  fetchPage,
  type Ordering,
  type Page,
  type PageRequest,
  preparedPage,
} from '../../db/pages.js';
import { pgColumn, pgDictionary } from '../../db/pg-arrays.js';
import type { SensorReadingTable } from '../../db/schema.js';

export type ReadingRow = SensorReadingTable;

const COLUMNS = [
  'device_id',
  'recorded_at',
  'id',
  'workspace_id',
  'room_id',
  'type',
  'value',
  'unit',
  'notes',
  'external_id',
  'created_at',
] as const satisfies readonly (keyof ReadingRow)[];

/** Newest first by when the readings were taken; equal times in a fixed order (the id). */
export const NEWEST_TAKEN: Ordering = { columns: ['recorded_at', 'id'], direction: 'desc' };

/**
 * On SQLite, the text of a multi-row insert of `count` readings that skips the ones
 * already stored (`ON CONFLICT DO NOTHING`) and returns the ids it stored, compiled
 * once per row count (and prepared once by the connection's statement cache):
 * building a 500-row insert with the query builder on every request would cost a
 * good part of what the database needs to run it.
 */
const insertTexts = new WeakMap<object, Map<number, string>>();

function insertText(trx: Trx, count: number): string {
  const adapter = trx.getExecutor().adapter;
  let byCount = insertTexts.get(adapter);
  if (byCount === undefined) {
    byCount = new Map();
    insertTexts.set(adapter, byCount);
  }
  let text = byCount.get(count);
  if (text === undefined) {
    const row = Object.fromEntries(COLUMNS.map((column) => [column, ''])) as unknown as ReadingRow;
    const compiled = trx
      .insertInto('sensor_readings')
      .values(Array.from({ length: count }, () => row))
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .compile();
    if (compiled.parameters.length !== count * COLUMNS.length) {
      throw new Error('the readings insert did not compile to one parameter per value');
    }
    text = compiled.sql;
    byCount.set(count, text);
  }
  return text;
}

/**
 * The PostgreSQL array type of each column, for the `unnest` insert: ids are
 * `uuid` and times `timestamptz` there (migration 20261126210000), text on SQLite.
 */
const COLUMN_ARRAY_TYPES: Record<(typeof COLUMNS)[number], string> = {
  device_id: 'uuid[]',
  recorded_at: 'timestamptz[]',
  id: 'uuid[]',
  workspace_id: 'uuid[]',
  room_id: 'uuid[]',
  type: 'text[]',
  value: 'float8[]',
  unit: 'text[]',
  notes: 'text[]',
  external_id: 'text[]',
  created_at: 'timestamptz[]',
};

/** The columns whose values differ from reading to reading: one array each on PostgreSQL. */
const PG_ARRAY_COLUMNS = COLUMNS.filter((c) => c !== 'workspace_id' && c !== 'created_at');

/** Columns a batch repeats a few values of: each value once, and a position per reading. */
const PG_DICTIONARY_COLUMNS = ['device_id', 'room_id'] as const;
const dictionaryOf = (column: string) =>
  (PG_DICTIONARY_COLUMNS as readonly string[]).indexOf(column);

/** Where each column's value comes from in the PostgreSQL insert (`r`: the unnested arrays). */
const pgSource = (column: (typeof COLUMNS)[number]): string => {
  if (column === 'workspace_id') return '$1::uuid';
  if (column === 'created_at') return '$2::timestamptz';
  const dictionary = dictionaryOf(column);
  if (dictionary >= 0) return `($${dictionary + 3}::uuid[])[r."${column}"]`;
  return `r."${column}"`;
};

/** The first parameter of the unnested arrays: after the two values and the dictionaries. */
const FIRST_ARRAY = 3 + PG_DICTIONARY_COLUMNS.length;

/**
 * On PostgreSQL, one array per column unnested into rows: a fixed number of
 * parameters whatever the batch size, so the statement is planned once per shape,
 * where a 500-row VALUES list has 5,500 parameters to bind and a large plan to make
 * on every batch. What a batch shares is sent once: its workspace, the time it is
 * stored, and each of its devices and rooms (a reading carries their positions).
 * Bytes sent are a visible part of the ingest's time on both sides of the socket.
 */
const PG_INSERT =
  `insert into "sensor_readings" (${COLUMNS.map((c) => `"${c}"`).join(', ')}) ` +
  `select ${COLUMNS.map(pgSource).join(', ')} ` +
  `from unnest(${PG_ARRAY_COLUMNS.map((c, i) => {
    const type = dictionaryOf(c) >= 0 ? 'int4[]' : COLUMN_ARRAY_TYPES[c];
    return `$${i + FIRST_ARRAY}::${type}`;
  }).join(', ')}) ` +
  `as r(${PG_ARRAY_COLUMNS.map((c) => `"${c}"`).join(', ')}) ` +
  'on conflict do nothing returning "id"';

/**
 * Inserts readings in one statement; a reading whose key (workspace, device,
 * recorded_at, id) is stored already is skipped. Returns the ids of the readings it
 * stored. The rows are one batch: one workspace, stored at one time.
 */
export async function insertReadings(trx: Trx, rows: readonly ReadingRow[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  // better-sqlite3 runs synchronously on the transaction's own connection.
  const sqlite = sqliteHandleOf(trx);
  if (sqlite === undefined) {
    const { workspace_id: workspaceId, created_at: createdAt } = rows[0]!;
    for (const row of rows) {
      if (row.workspace_id !== workspaceId || row.created_at !== createdAt) {
        throw new Error('a readings batch is one workspace stored at one time');
      }
    }
    const dictionaries = PG_DICTIONARY_COLUMNS.map((column) => pgDictionary(rows, column));
    const parameters = [
      workspaceId,
      createdAt,
      ...dictionaries.map((d) => d.values),
      ...PG_ARRAY_COLUMNS.map((column) => {
        const dictionary = dictionaryOf(column);
        return dictionary >= 0 ? dictionaries[dictionary]!.positions : pgColumn(rows, column);
      }),
    ];
    const { rows: stored } = await trx.executeQuery<{ id: string }>(
      CompiledQuery.raw(PG_INSERT, parameters),
    );
    return new Set(stored.map((row) => row.id));
  }
  const parameters: unknown[] = new Array(rows.length * COLUMNS.length);
  let i = 0;
  for (const row of rows) {
    for (const column of COLUMNS) parameters[i++] = row[column];
  }
  const stored = sqlite.prepare(insertText(trx, rows.length)).all(parameters) as { id: string }[];
  return new Set(stored.map((row) => row.id));
}

/** One reading by its key. */
export async function findReading(
  db: Db,
  workspaceId: string,
  key: { device_id: string; recorded_at: string; id: string },
): Promise<ReadingRow | undefined> {
  return db
    .selectFrom('sensor_readings')
    .select(COLUMNS)
    .where('device_id', '=', key.device_id)
    .where('recorded_at', '=', key.recorded_at)
    .where('id', '=', key.id)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
}

export interface ReadingFilter {
  readonly deviceId?: string;
  readonly roomId?: string;
  readonly type?: string;
  /** Inclusive bounds on `recorded_at`, ISO 8601 UTC. */
  readonly since?: string;
  readonly until?: string;
}

/** Bounds that hold every stored `recorded_at`: a device list without since or until. */
export const EARLIEST = '0001-01-01T00:00:00.000Z';
export const LATEST = '9999-12-31T23:59:59.999Z';

/**
 * A device's readings between two times, newest first: the list devices and
 * dashboards ask for most (`device_id` with `since`), compiled once (the bench's
 * readings case); absent bounds are the widest ones, so one shape serves all four.
 */
const deviceReadings = preparedPage(
  (db, p: { workspaceId: string; deviceId: string; since: string; until: string }) =>
    db
      .selectFrom('sensor_readings')
      .select(COLUMNS)
      .where('workspace_id', '=', p.workspaceId)
      .where('device_id', '=', p.deviceId)
      .where('recorded_at', '>=', p.since)
      .where('recorded_at', '<=', p.until),
  NEWEST_TAKEN,
);

/**
 * A page of the workspace's readings, newest first. Each filter has its index:
 * a device's readings are a range of the primary key (workspace_id, device_id,
 * recorded_at, id), a room's of (workspace_id, room_id, recorded_at, id), a type's
 * of (workspace_id, type, recorded_at, id), and all of them of (workspace_id,
 * recorded_at, id).
 */
export function listReadingPage(
  db: Db,
  workspaceId: string,
  filter: ReadingFilter,
  page: PageRequest,
): Promise<Page<ReadingRow>> {
  if (filter.deviceId !== undefined && filter.roomId === undefined && filter.type === undefined) {
    return deviceReadings.fetch(
      db,
      {
        workspaceId,
        deviceId: filter.deviceId,
        since: filter.since ?? EARLIEST,
        until: filter.until ?? LATEST,
      },
      page,
    );
  }
  let query = db
    .selectFrom('sensor_readings')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId);
  if (filter.deviceId !== undefined) query = query.where('device_id', '=', filter.deviceId);
  if (filter.roomId !== undefined) query = query.where('room_id', '=', filter.roomId);
  if (filter.type !== undefined) query = query.where('type', '=', filter.type);
  if (filter.since !== undefined) query = query.where('recorded_at', '>=', filter.since);
  if (filter.until !== undefined) query = query.where('recorded_at', '<=', filter.until);
  return fetchPage(query, NEWEST_TAKEN, page);
}

/** When the newest reading of a type was taken on one device or in one room; null: never. */
export async function newestReadingTime(
  db: Db,
  workspaceId: string,
  of: { readonly type: string; readonly deviceId: string | null; readonly roomId: string | null },
): Promise<string | null> {
  let query = db
    .selectFrom('sensor_readings')
    .select('recorded_at')
    .where('workspace_id', '=', workspaceId)
    .where('type', '=', of.type);
  if (of.deviceId !== null) query = query.where('device_id', '=', of.deviceId);
  if (of.roomId !== null) query = query.where('room_id', '=', of.roomId);
  const row = await query.orderBy('recorded_at', 'desc').limit(1).executeTakeFirst();
  return row?.recorded_at ?? null;
}

/**
 * A room's most recent readings, newest first, at most `limit`: a range of
 * (workspace_id, room_id, recorded_at, id) read backwards, however many the room has.
 */
export async function recentRoomReadings(
  db: Db,
  workspaceId: string,
  roomId: string,
  limit: number,
): Promise<ReadingRow[]> {
  return db
    .selectFrom('sensor_readings')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('room_id', '=', roomId)
    .orderBy('recorded_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
