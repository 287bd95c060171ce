import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { addDecimals, formatDecimal, parseDecimal, type Decimal } from '../../lib/exact-sum.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * Five-minute rollups (span 5) beside the minute and hour ones, made here from the
 * stored minute rollups: a summary in 5- or 15-minute buckets reads a fifth of the
 * rows it read before (a day's chart of a device, 288 instead of 1,440). The sum of
 * exact sums is exact; the last reading is the one with the greatest (last_at,
 * last_id). From here on the ingest keeps them with the others.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`
      insert into sensor_rollups (workspace_id, device_id, span_minutes, minute, type, unit, room_key,
        reading_count, min_value, max_value, value_sum, last_at, last_id, last_value)
      select workspace_id, device_id, 5, minute - ((minute % 5) + 5) % 5 as start, type, unit,
        room_key, sum(reading_count), min(min_value), max(max_value), sum(value_sum),
        max(last_at),
        (array_agg(last_id order by last_at desc, last_id desc))[1],
        (array_agg(last_value order by last_at desc, last_id desc))[1]
      from sensor_rollups where span_minutes = 1
      group by workspace_id, device_id, start, type, unit, room_key`.execute(db);
    await sql`analyze sensor_rollups`.execute(db);
    return;
  }
  await backfillFiveMinutesSqlite(db);
}

interface MinuteRow {
  workspace_id: string;
  device_id: string;
  span_minutes: number;
  minute: number;
  type: string;
  unit: string;
  room_key: string;
  reading_count: number;
  min_value: number;
  max_value: number;
  value_sum: string;
  last_at: number;
  last_id: string;
  last_value: number;
}

interface Group extends Omit<MinuteRow, 'value_sum'> {
  sum: Decimal;
}

const KEY = [
  'workspace_id',
  'device_id',
  'span_minutes',
  'minute',
  'type',
  'unit',
  'room_key',
] as const;

const startOf = (minute: number) => minute - (((minute % 5) + 5) % 5);
/** The device's five minutes a minute row falls in: its rows are neighbours in key order. */
const blockOf = (row: MinuteRow) => `${row.workspace_id}|${row.device_id}|${startOf(row.minute)}`;

/**
 * SQLite: the minute rollups in key order (workspace, device, span, minute, …),
 * `batch` at a time, grouped by device and five minutes; a group is written once
 * the rows have passed its five minutes, so a batch that ends inside one carries it
 * over to the next.
 */
export async function backfillFiveMinutesSqlite(db: Kysely<any>, batch = 50_000): Promise<void> {
  let after: unknown[] | null = null;
  let open = new Map<string, Group>();
  let openBlock: string | null = null;
  const write = async (groups: Iterable<Group>) => {
    const rows = [...groups].map(({ sum, ...group }) => ({
      ...group,
      value_sum: formatDecimal(sum),
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await db
        .insertInto('sensor_rollups')
        .values(rows.slice(i, i + 500))
        .execute();
    }
  };
  for (;;) {
    let query = db.selectFrom('sensor_rollups').selectAll().where('span_minutes', '=', 1);
    for (const column of KEY) query = query.orderBy(column);
    query = query.limit(batch);
    if (after !== null) {
      query = query.where(
        sql<boolean>`(${sql.join(KEY.map((column) => sql.ref(column)))}) > (${sql.join(after.map((v) => sql.val(v)))})`,
      );
    }
    const rows = (await query.execute()) as MinuteRow[];
    const done: Group[] = [];
    for (const row of rows) {
      const block = blockOf(row);
      if (block !== openBlock) {
        done.push(...open.values());
        open = new Map();
        openBlock = block;
      }
      const key = `${row.type}|${row.unit}|${row.room_key}`;
      const group = open.get(key);
      if (group === undefined) {
        const { value_sum, ...figures } = row;
        open.set(key, {
          ...figures,
          span_minutes: 5,
          minute: startOf(row.minute),
          sum: parseDecimal(value_sum),
        });
        continue;
      }
      group.reading_count += row.reading_count;
      if (row.min_value < group.min_value) group.min_value = row.min_value;
      if (row.max_value > group.max_value) group.max_value = row.max_value;
      group.sum = addDecimals(group.sum, parseDecimal(row.value_sum));
      if (
        row.last_at > group.last_at ||
        (row.last_at === group.last_at && row.last_id > group.last_id)
      ) {
        group.last_at = row.last_at;
        group.last_id = row.last_id;
        group.last_value = row.last_value;
      }
    }
    await write(done);
    if (rows.length < batch) {
      await write(open.values());
      return;
    }
    const last = rows[rows.length - 1]!;
    after = KEY.map((column) => last[column]);
  }
}
