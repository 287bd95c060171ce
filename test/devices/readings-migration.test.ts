import { randomUUID } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { backfillFiveMinutesSqlite } from '../../src/db/migrations/20261127061000_five_minute_rollups.js';
import { formatDecimal, parseDecimal } from '../../src/lib/exact-sum.js';
import { rollupRowsOf, type RollupRow } from '../../src/modules/readings/rollups.js';
import type { ReadingRow } from '../../src/modules/readings/readings.repository.js';
import { databaseAt } from '../support/migration-db.js';

const BEFORE = '20261123170000_comments';

/** Readings as the release before stored them: text ids and times. */
function oldReadings(): ReadingRow[] {
  const workspace = randomUUID();
  const devices = [randomUUID(), randomUUID()];
  const room = randomUUID();
  const values = [0.1, 0.2, 0.3, 1e-7, 123456789.125, -0, -40.25, 21.3, 5e-324, 1.5e21];
  const rows: ReadingRow[] = [];
  for (let i = 0; i < 90; i++) {
    const time = new Date(
      Date.UTC(2026, 9 + (i % 3), 27 + (i % 3), 23, 59, i % 60, (i * 7) % 1000),
    );
    rows.push({
      device_id: devices[i % 2]!,
      recorded_at: time.toISOString(),
      id: randomUUID(),
      workspace_id: workspace,
      room_id: i % 4 === 0 ? null : room,
      type: i % 5 === 0 ? 'humidity' : 'temperature',
      value: values[i % values.length]!,
      unit: i % 5 === 0 ? '%' : 'C',
      notes: i % 9 === 0 ? 'checked' : null,
      external_id: i % 2 === 0 ? `x-${i}` : null,
      created_at: time.toISOString(),
    });
  }
  // Two readings at one instant (the last is the greater id), and a clock far off.
  rows.push({ ...rows[1]!, id: 'ffffffff-0000-4000-8000-000000000000', value: 99 });
  rows.push({ ...rows[2]!, id: randomUUID(), recorded_at: '0000-06-01T00:00:00.000Z' });
  return rows;
}

const sorted = (rows: object[]) => rows.map((row) => JSON.stringify(row)).sort();

function normalisedRollups(rows: RollupRow[]) {
  return sorted(
    rows.map((row) => ({
      ...row,
      minute: Number(row.minute),
      span_minutes: Number(row.span_minutes),
      reading_count: Number(row.reading_count),
      last_at: Number(row.last_at),
      value_sum: formatDecimal(parseDecimal(row.value_sum)),
      min_value: row.min_value + 0,
      max_value: row.max_value + 0,
      last_value: row.last_value + 0,
    })),
  );
}

/** Every stored rollup row, all its columns. */
function storedRollups(db: Database['db']): Promise<RollupRow[]> {
  return db
    .selectFrom('sensor_rollups')
    .select([
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
    ])
    .execute() as Promise<RollupRow[]>;
}

describe.each(['sqlite', 'postgres'] as const)('readings migrations on %s', (name) => {
  it.runIf(name === 'sqlite' || inject('postgresUrl') !== null)(
    'convert stored readings and give them the rollups ingest would have kept',
    async () => {
      const before = await databaseAt(name, BEFORE);
      try {
        const { db } = before.database;
        const rows = oldReadings();
        for (let i = 0; i < rows.length; i += 30) {
          await db
            .insertInto('sensor_readings')
            .values(rows.slice(i, i + 30))
            .execute();
        }
        await before.migrateToLatest();

        // On PostgreSQL the year-0 reading is kept at the first instant timestamptz (and
        // the API) allows; SQLite keeps its text as it was.
        const expected = rows.map((row) =>
          name === 'postgres' && row.recorded_at.startsWith('0000')
            ? { ...row, recorded_at: '0001-01-01T00:00:00.000Z' }
            : row,
        );
        const stored = await db
          .selectFrom('sensor_readings')
          .select([
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
          ])
          .execute();
        const zeroless = (list: ReadingRow[]) => list.map((r) => ({ ...r, value: r.value + 0 }));
        expect(sorted(zeroless(stored))).toEqual(sorted(zeroless(expected)));

        const rollups = await storedRollups(db);
        const ingested = rollupRowsOf(expected);
        expect(ingested.length).toBeGreaterThan(20);
        expect(normalisedRollups(rollups)).toEqual(normalisedRollups(ingested));

        if (name === 'postgres') {
          const { rows: types } = await sql<{ column_name: string; data_type: string }>`
            select column_name, data_type from information_schema.columns
            where table_name = 'sensor_readings' and table_schema = current_schema()
            order by column_name`.execute(db);
          expect(Object.fromEntries(types.map((c) => [c.column_name, c.data_type]))).toMatchObject({
            id: 'uuid',
            device_id: 'uuid',
            workspace_id: 'uuid',
            room_id: 'uuid',
            recorded_at: 'timestamp with time zone',
            created_at: 'timestamp with time zone',
          });
          const { rows: parts } = await sql<{ partition: string; n: number }>`
            select tableoid::regclass::text as partition, count(*)::int as n
            from sensor_readings group by 1 order by 1`.execute(db);
          expect(parts.map((p) => p.partition)).toEqual([
            'sensor_readings_default',
            'sensor_readings_p202610',
            'sensor_readings_p202611',
            'sensor_readings_p202612',
          ]);
        }
      } finally {
        await before.close();
      }
    },
  );
});

describe('the readings rollups migration on sqlite', () => {
  it('backfills in batches that end with a device-hour, and adds up one larger than a batch', async () => {
    const before = await databaseAt('sqlite', BEFORE);
    try {
      const { db } = before.database;
      const workspace = randomUUID();
      const [busy, quiet] = [randomUUID(), randomUUID()];
      const start = Date.parse('2026-11-20T05:00:00.000Z');
      const row = (device: string, ms: number, i: number): ReadingRow => ({
        device_id: device,
        recorded_at: new Date(ms).toISOString(),
        id: randomUUID(),
        workspace_id: workspace,
        room_id: null,
        type: 'temperature',
        value: (i % 400) / 10,
        unit: 'C',
        notes: null,
        external_id: null,
        created_at: new Date(ms).toISOString(),
      });
      // 70,000 readings of one device in one hour (more than a batch of 50,000), then
      // 40,000 of another over 11 hours (batches end between its hours).
      const rows = [
        ...Array.from({ length: 70_000 }, (_, i) => row(busy, start + i * 50, i)),
        ...Array.from({ length: 40_000 }, (_, i) => row(quiet, start + i * 1000, i)),
      ];
      for (let i = 0; i < rows.length; i += 2000) {
        await db
          .insertInto('sensor_readings')
          .values(rows.slice(i, i + 2000))
          .execute();
      }
      await before.migrateToLatest();
      const rollups = await storedRollups(db);
      expect(normalisedRollups(rollups)).toEqual(normalisedRollups(rollupRowsOf(rows)));
    } finally {
      await before.close();
    }
  });
});

describe('the five-minute rollups migration on sqlite', () => {
  it('groups minute rollups by device and five minutes across batch ends, as ingest does', async () => {
    const database = openDatabase({ dialect: 'sqlite', path: ':memory:', url: 'sqlite::memory:' });
    try {
      const { error } = await new Migrator({
        db: database.db,
        provider: { getMigrations: () => Promise.resolve(migrations) },
      }).migrateToLatest();
      expect(error).toBeUndefined();
      const rows = oldReadings();
      const ingested = rollupRowsOf(rows);
      const before = ingested.filter((row) => row.span_minutes !== 5);
      expect(ingested.length - before.length).toBeGreaterThan(10);
      // Batches of 1, 2 and 7 rows end inside every five minutes, and between them.
      for (const batch of [1, 2, 7]) {
        await database.db.deleteFrom('sensor_rollups').execute();
        await database.db.insertInto('sensor_rollups').values(before).execute();
        await backfillFiveMinutesSqlite(database.db, batch);
        const stored = await storedRollups(database.db);
        expect(normalisedRollups(stored)).toEqual(normalisedRollups(ingested));
      }
    } finally {
      await database.close();
    }
  });
});
