import { CompiledQuery, sql } from 'kysely';
import { sqliteHandleOf, type Db, type Trx } from '../../db/database.js';
import { pgColumn } from '../../db/pg-arrays.js';
import { preparedQuery } from '../../db/prepared.js';
import type { SensorRollupTable } from '../../db/schema.js';
import { parseDecimal } from '../../lib/exact-sum.js';
import { figuresOf, modulo, NO_ROOM, type Figures, type RollupRow, type Span } from './rollups.js';

const COLUMNS = [
  'workspace_id',
  'device_id',
  'span_minutes',
  'minute',
  'type',
  'unit',
  'room_key',
  'reading_count',
  'min_value',
  'max_value',
  'value_sum',
  'last_at',
  'last_id',
  'last_value',
] as const satisfies readonly (keyof SensorRollupTable)[];

const KEY = 'workspace_id, device_id, span_minutes, minute, type, unit, room_key';
const LATER =
  '(excluded.last_at, excluded.last_id) > (sensor_rollups.last_at, sensor_rollups.last_id)';
const laterOr = (column: string) =>
  `${column} = case when ${LATER} then excluded.${column} else sensor_rollups.${column} end`;
const LAST = ['last_value', 'last_id', 'last_at'].map(laterOr).join(', ');

/** The PostgreSQL array type of each column, for the `unnest` upsert. */
const PG_ARRAY_TYPES: Record<(typeof COLUMNS)[number], string> = {
  workspace_id: 'uuid[]',
  device_id: 'uuid[]',
  span_minutes: 'int2[]',
  minute: 'int8[]',
  type: 'text[]',
  unit: 'text[]',
  room_key: 'uuid[]',
  reading_count: 'int8[]',
  min_value: 'float8[]',
  max_value: 'float8[]',
  value_sum: 'numeric[]',
  last_at: 'int8[]',
  last_id: 'uuid[]',
  last_value: 'float8[]',
};

/**
 * Adds rows to the rollups: a new key is inserted, a stored one takes the sum of
 * counts and exact sums, the lower min, the higher max and the later last reading.
 * On PostgreSQL one statement of column arrays (like the readings insert); the sum
 * is a `numeric`, so `+` is exact.
 */
const PG_UPSERT =
  `insert into sensor_rollups (${COLUMNS.join(', ')}) ` +
  `select * from unnest(${COLUMNS.map((c, i) => `$${i + 1}::${PG_ARRAY_TYPES[c]}`).join(', ')}) ` +
  `on conflict (${KEY}) do update set ` +
  'reading_count = sensor_rollups.reading_count + excluded.reading_count, ' +
  'min_value = least(sensor_rollups.min_value, excluded.min_value), ' +
  'max_value = greatest(sensor_rollups.max_value, excluded.max_value), ' +
  `value_sum = sensor_rollups.value_sum + excluded.value_sum, ${LAST}`;

/**
 * On SQLite the sum is decimal text, added by `vitro_decimal_add` (registered on
 * every connection, src/db/database.ts); the statement is compiled once per row count.
 */
const sqliteUpserts = new Map<number, string>();

function sqliteUpsert(count: number): string {
  let text = sqliteUpserts.get(count);
  if (text === undefined) {
    const tuple = `(${COLUMNS.map(() => '?').join(', ')})`;
    text =
      `insert into sensor_rollups (${COLUMNS.join(', ')}) values ` +
      `${Array.from({ length: count }, () => tuple).join(', ')} ` +
      `on conflict (${KEY}) do update set ` +
      'reading_count = sensor_rollups.reading_count + excluded.reading_count, ' +
      'min_value = min(sensor_rollups.min_value, excluded.min_value), ' +
      'max_value = max(sensor_rollups.max_value, excluded.max_value), ' +
      `value_sum = vitro_decimal_add(sensor_rollups.value_sum, excluded.value_sum), ${LAST}`;
    sqliteUpserts.set(count, text);
  }
  return text;
}

/** Adds the rollup rows of readings just stored (rows in key order: see rollupRowsOf). */
export async function addToRollups(trx: Trx, rows: readonly RollupRow[]): Promise<void> {
  if (rows.length === 0) return;
  const sqlite = sqliteHandleOf(trx);
  if (sqlite === undefined) {
    await trx.executeQuery(
      CompiledQuery.raw(
        PG_UPSERT,
        COLUMNS.map((column) => pgColumn(rows, column)),
      ),
    );
    return;
  }
  const parameters: unknown[] = new Array(rows.length * COLUMNS.length);
  let i = 0;
  for (const row of rows) {
    for (const column of COLUMNS) parameters[i++] = row[column];
  }
  sqlite.prepare(sqliteUpsert(rows.length)).run(parameters);
}

/** Which rollups a summary reads: a device's or a room's (or a device's in a room), maybe one type. */
export interface RollupFilter {
  readonly deviceId?: string;
  readonly roomId?: string;
  readonly type?: string;
}

interface RangeParams {
  workspaceId: string;
  deviceId: string;
  roomId: string;
  type: string;
}

/** The filter's shape: which of device, room and type it names (each shape is compiled once). */
const shapeOf = (filter: RollupFilter) =>
  `${filter.deviceId === undefined ? '' : 'd'}${filter.roomId === undefined ? '' : 'r'}${filter.type === undefined ? '' : 't'}`;

/** Prepared queries by shape, made on first use. */
function byShape<Q>(make: (filter: RollupFilter) => Q) {
  const made = new Map<string, Q>();
  return (filter: RollupFilter): Q => {
    const shape = shapeOf(filter);
    let query = made.get(shape);
    if (query === undefined) {
      query = make(filter);
      made.set(shape, query);
    }
    return query;
  };
}

function rollupsOf(
  db: Db,
  p: RangeParams & { span: number; from: number; to: number },
  filter: RollupFilter,
) {
  let query = db.selectFrom('sensor_rollups').where('workspace_id', '=', p.workspaceId);
  if (filter.deviceId !== undefined) query = query.where('device_id', '=', p.deviceId);
  if (filter.roomId !== undefined) query = query.where('room_key', '=', p.roomId);
  query = query.where('span_minutes', '=', p.span);
  if (filter.type !== undefined) query = query.where('type', '=', p.type);
  return query.where('minute', '>=', p.from).where('minute', '<', p.to);
}

type RollupParams = RangeParams & { span: number; from: number; to: number; b: number };

/** SQLite: the stored rollup rows of the range. */
const rollupRows = byShape((filter) =>
  preparedQuery((db, p: RollupParams) =>
    rollupsOf(db, p, filter).select([
      'type',
      'unit',
      'minute',
      'reading_count',
      'min_value',
      'max_value',
      'value_sum',
      'last_at',
      'last_id',
      'last_value',
    ]),
  ),
);

const LAST_FIRST = sql.raw('order by last_at desc, last_id desc');

/** PostgreSQL: the range's rollups grouped by (type, unit, bucket). */
const rollupGroups = byShape((filter) =>
  preparedQuery((db, p: RollupParams) =>
    rollupsOf(db, p, filter)
      .select([
        'type',
        'unit',
        sql<number>`minute - ((minute % ${p.b}) + ${p.b}) % ${p.b}`.as('bucket'),
        sql<number>`sum(reading_count)::int8`.as('reading_count'),
        sql<number>`min(min_value)`.as('min_value'),
        sql<number>`max(max_value)`.as('max_value'),
        sql<string>`sum(value_sum)`.as('value_sum'),
        sql<number>`max(last_at)`.as('last_at'),
        sql<string>`(array_agg(last_id ${LAST_FIRST}))[1]`.as('last_id'),
        sql<number>`(array_agg(last_value ${LAST_FIRST}))[1]`.as('last_value'),
      ])
      .groupBy(['type', 'unit', sql`3`]),
  ),
);

const params = (workspaceId: string, filter: RollupFilter): RangeParams => ({
  workspaceId,
  deviceId: filter.deviceId ?? '',
  roomId: filter.roomId ?? '',
  type: filter.type ?? '',
});

/** Receives the figures of one (type, unit, bucket): a stored rollup, or a group of them. */
export type FiguresVisitor = (type: string, unit: string, bucket: number, figures: Figures) => void;

/** A row of `rollupRows` as SQLite hands it back in raw mode, in select order. */
type RollupTuple = [
  type: string,
  unit: string,
  minute: number,
  reading_count: number,
  min_value: number,
  max_value: number,
  value_sum: string,
  last_at: number,
  last_id: string,
  last_value: number,
];

/**
 * Visits the rollups of `span` starting in [from, to) (minutes), by (type, unit,
 * bucket of `bucketMinutes`). PostgreSQL groups them (the sum of `numeric`s is
 * exact; the last reading is the first in (last_at, last_id) descending order),
 * SQLite hands the rows back one per stored key, as arrays (no object per row),
 * and the caller merges them: its rows cost nothing to move, and it has no exact
 * sum of decimal text.
 */
export async function visitRollupFigures(
  db: Db,
  workspaceId: string,
  filter: RollupFilter,
  range: { span: Span; from: number; to: number; bucketMinutes: number },
  visit: FiguresVisitor,
): Promise<void> {
  const b = range.bucketMinutes;
  const p = { ...params(workspaceId, filter), span: range.span, from: range.from, to: range.to, b };
  if (sqliteHandleOf(db) === undefined) {
    for (const row of await rollupGroups(filter).all(db, p)) {
      visit(row.type, row.unit, row.bucket, figuresOf(row));
    }
    return;
  }
  const rows = (await rollupRows(filter).tuples(db, p)) as RollupTuple[];
  for (const row of rows) {
    visit(row[0], row[1], row[2] - modulo(row[2], b), {
      count: row[3],
      min: row[4],
      max: row[5],
      sum: parseDecimal(row[6]),
      lastAt: row[7],
      lastId: row[8],
      lastValue: row[9],
    });
  }
}

type RawParams = RangeParams & { from: string; to: string };

const rawReadings = byShape((filter) =>
  preparedQuery((db, p: RawParams) => {
    let query = db
      .selectFrom('sensor_readings')
      .select(['type', 'unit', 'value', 'recorded_at', 'id'])
      .where('workspace_id', '=', p.workspaceId);
    if (filter.deviceId !== undefined) query = query.where('device_id', '=', p.deviceId);
    if (filter.roomId !== undefined) query = query.where('room_id', '=', p.roomId);
    if (filter.type !== undefined) query = query.where('type', '=', p.type);
    return query.where('recorded_at', '>=', p.from).where('recorded_at', '<', p.to);
  }),
);

/** A row of `rawReadings` as an array, in select order. */
type RawTuple = [type: string, unit: string, value: number, recorded_at: string, id: string];

/**
 * Visits the raw readings taken in [from, to) (ISO times): the part of a minute a
 * summary's bound cuts.
 */
export async function visitRawReadings(
  db: Db,
  workspaceId: string,
  filter: RollupFilter,
  from: string,
  to: string,
  visit: (type: string, unit: string, value: number, recordedAt: string, id: string) => void,
): Promise<void> {
  const rows = (await rawReadings(filter).tuples(db, {
    ...params(workspaceId, filter),
    from,
    to,
  })) as RawTuple[];
  for (const row of rows) visit(row[0], row[1], row[2], row[3], row[4]);
}

export { NO_ROOM };
