import { sql } from 'kysely';
import { beforeEach, expect, it } from 'vitest';
import { releaseLease, takeLease } from '../../src/db/leases.js';
import { inTransaction } from '../../src/db/transaction.js';
import { startReadingsMaintenance } from '../../src/modules/readings/maintenance.js';
import {
  ensureMonthPartition,
  monthPartition,
} from '../../src/modules/readings/partitions.repository.js';
import { removeExpiredReadings } from '../../src/modules/readings/retention.runner.js';
import {
  retentionCut,
  setReadingsRetention,
} from '../../src/modules/readings/retention.service.js';
import { client, dataOf, GENEROUS_LIMITS, listAll, type Client } from '../support/helpers.js';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { batchOf, newDevice, reading } from './helpers.js';
import type { RawReading } from './summary-reference.js';

const URL = '/api/v1/sensor-readings';
/**
 * Every time here is in 2001, which no other test writes: on PostgreSQL the tests
 * share one database, and retention removes by month across it.
 */
const NOW = new Date('2001-06-15T12:00:00.000Z');

describeOnDatabases('readings retention', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS, readingsMaintenance: false });
  let device: { id: string };
  beforeEach(async () => {
    device = await newDevice(owner);
  });

  const ingest = async (readings: object[]) => dataOf(await owner.post(URL, { readings }), 201);
  const setRetention = (workspaceId: string, setting: number | 'off' | 'default') =>
    inTransaction(t.database.db, (trx) =>
      setReadingsRetention(trx, workspaceId, setting, null, NOW.toISOString()),
    );
  const listed = async (c: Client = owner) => (await listAll(c, URL, 1000)) as RawReading[];
  const run = (defaultDays: number | null = null, batchTargetMs?: number) =>
    removeExpiredReadings(t.database, {
      defaultDays,
      now: NOW,
      ...(batchTargetMs === undefined ? {} : { batchTargetMs }),
    });

  /** On PostgreSQL, gives 2001-`month` its partition (the server makes only the months around now). */
  async function partitionFor(month: number) {
    if (target.name !== 'postgres') return null;
    const partition = monthPartition(2001, month - 1);
    await inTransaction(t.database.db, (trx) => ensureMonthPartition(trx, partition));
    return partition.name;
  }

  const summary = async (query: string) =>
    body(await owner.get(`${URL}/summary?device_id=${device.id}&${query}`));

  it('removes raw readings of whole months past the retention; summaries and newer readings stay', async () => {
    const partition = await partitionFor(3);
    const old = batchOf(device.id, 120, {
      start: Date.parse('2001-03-31T23:58:00.000Z'),
      prefix: 'old',
    });
    const kept = batchOf(device.id, 30, {
      start: Date.parse('2001-05-02T10:00:00.000Z'),
      prefix: 'kept',
    });
    await ingest([...old, ...kept]);
    const range = 'bucket=1h&since=2001-03-01T00:00:00Z&until=2001-06-01T00:00:00Z';
    const before = await summary(range);
    expect(before.data.map((b: { count: number }) => b.count)).toEqual([120, 30]);
    expect(body(await owner.get(`${URL}?limit=1000`)).meta).toEqual({ next_cursor: null });

    // 30 days before 2001-06-15 is in May: everything before May 1st goes.
    await setRetention(lab.workspaceId, 30);
    expect(retentionCut(NOW, 30)).toBe('2001-05-01T00:00:00.000Z');
    const report = await run();
    expect(report.workspaces).toBe(1);
    if (partition !== null) {
      // March's readings were all in their partition, which held nobody else's: dropped.
      expect(report.dropped).toContain(partition);
      expect(report.deleted).toBe(0);
    } else {
      expect(report.deleted).toBe(120);
    }

    const remaining = await listed();
    expect(remaining.map((r) => r.recorded_at).sort()).toEqual(
      kept.map((r) => r.recorded_at).sort(),
    );
    expect(body(await owner.get(`${URL}?limit=1000`)).meta).toEqual({
      next_cursor: null,
      raw_since: '2001-05-01T00:00:00.000Z',
    });
    // The summary still holds the removed readings, from their rollups.
    const after = await summary(range);
    expect(after.data).toEqual(before.data);
    expect(after.meta.raw_since).toBe('2001-05-01T00:00:00.000Z');
    // A bound inside a removed minute counts that whole minute: its raw readings are gone.
    const minute = await summary(
      'bucket=1m&since=2001-03-31T23:58:30Z&until=2001-03-31T23:58:59.999Z',
    );
    expect(minute.data).toEqual([expect.objectContaining({ count: 60 })]);

    // A second run finds nothing more to do.
    expect(await run()).toMatchObject({ workspaces: 0, deleted: 0, dropped: [] });
  });

  it('follows the workspace setting, else READINGS_RETENTION_DAYS; off keeps everything', async () => {
    await partitionFor(2);
    const other = await createLab(t.database, { name: 'Keeps for ever' });
    const them = client(t, other.owner);
    const theirs = await newDevice(them);
    const third = await createLab(t.database, { name: 'Follows the default' });
    const thirdClient = client(t, third.owner);
    const thirdDevice = await newDevice(thirdClient);
    const at = Date.parse('2001-02-10T08:00:00.000Z');
    await ingest(batchOf(device.id, 10, { start: at }));
    dataOf(await them.post(URL, { readings: batchOf(theirs.id, 10, { start: at }) }), 201);
    dataOf(
      await thirdClient.post(URL, { readings: batchOf(thirdDevice.id, 10, { start: at }) }),
      201,
    );

    await setRetention(lab.workspaceId, 60);
    await setRetention(other.workspaceId, 'off');
    await setRetention(third.workspaceId, 'default');
    // Without a default, only the workspace with its own setting loses readings.
    await run(null);
    expect(await listed()).toEqual([]);
    expect(await listed(them)).toHaveLength(10);
    expect(await listed(thirdClient)).toHaveLength(10);
    // With READINGS_RETENTION_DAYS, the one that follows it does too; `off` still keeps.
    const report = await run(90);
    expect(await listed(them)).toHaveLength(10);
    expect(await listed(thirdClient)).toEqual([]);
    // February's partition (PostgreSQL) holds readings kept for ever: rows went one by one.
    expect(report.dropped).toEqual([]);
    // On PostgreSQL the tests share one database: workspaces of other files follow the
    // default too, and may hold readings before the cut (years 0001 and on).
    if (target.name === 'sqlite') expect(report.deleted).toBe(10);
    else expect(report.deleted).toBeGreaterThanOrEqual(10);
  });

  it('removes in batches while readings keep arriving, and removes late readings on the next run', async () => {
    await setRetention(lab.workspaceId, 30);
    const old = Array.from({ length: 6 }, (_, i) =>
      batchOf(device.id, 100, { start: Date.parse('2001-01-05T00:00:00.000Z'), from: i * 100 }),
    );
    for (const batch of old) await ingest(batch);
    // A tiny target per batch: many batches (50 readings each at least).
    const removal = run(null, 0.001);
    const during = Array.from({ length: 5 }, (_, i) =>
      ingest(
        batchOf(device.id, 50, { start: Date.parse('2001-06-01T00:00:00.000Z'), prefix: `n${i}` }),
      ),
    );
    const [report] = await Promise.all([removal, ...during]);
    expect(report.deleted).toBe(600);
    if (target.name === 'sqlite') expect(report.batches).toBeGreaterThan(5);
    // Each batch timed whole and its commit apart: the commit is part of the batch.
    expect(report.longestCommitMs).toBeGreaterThan(0);
    expect(report.longestCommitMs).toBeLessThanOrEqual(report.longestBatchMs);
    expect(await listed()).toHaveLength(250);

    // A reading taken before where raw readings now start, sent late: stored and summarised,
    // removed by the next run; its summary stays.
    await ingest([
      reading(device.id, {
        value: 7.5,
        recorded_at: '2001-02-01T00:00:00.000Z',
        external_id: 'late',
      }),
    ]);
    expect(await listed()).toHaveLength(251);
    const day = 'bucket=1d&since=2001-02-01T00:00:00Z&until=2001-02-01T23:59:59.999Z';
    expect((await summary(day)).data).toEqual([expect.objectContaining({ count: 1, avg: 7.5 })]);
    expect((await run()).deleted).toBe(1);
    expect(await listed()).toHaveLength(250);
    expect((await summary(day)).data).toEqual([expect.objectContaining({ count: 1, avg: 7.5 })]);
  });

  it('runs in one process at a time: a lease held elsewhere makes a run wait for the next', async () => {
    await setRetention(lab.workspaceId, 30);
    await ingest(batchOf(device.id, 5, { start: Date.parse('2001-01-20T00:00:00.000Z') }));
    const maintenance = startReadingsMaintenance(t.database, {
      defaultDays: null,
      log: t.app.log,
      schedule: false,
    });
    try {
      const name = 'readings-maintenance';
      const now = new Date().toISOString();
      const later = new Date(Date.now() + 60_000).toISOString();
      await inTransaction(t.database.db, (trx) =>
        takeLease(trx, name, 'another process', now, later),
      );
      expect(await maintenance.runNow(NOW)).toBeNull();
      expect(await listed()).toHaveLength(5);
      await inTransaction(t.database.db, (trx) => releaseLease(trx, name, 'another process'));
      const done = await maintenance.runNow(NOW);
      expect(done?.retention.workspaces).toBeGreaterThanOrEqual(1);
      expect(await listed()).toEqual([]);
    } finally {
      await maintenance.stop();
    }
  });

  it.runIf(target.name === 'postgres')(
    'leaves a month whose table another transaction holds to the next run, then drops it',
    async () => {
      const partition = (await partitionFor(4))!;
      await ingest(batchOf(device.id, 10, { start: Date.parse('2001-04-10T00:00:00.000Z') }));
      await setRetention(lab.workspaceId, 30);
      // Another connection reads the month and keeps its transaction open: the drop
      // waits for it, gives up after its attempts, and leaves the month whole.
      const other = await target.open();
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding = () => {};
      const held = new Promise<void>((resolve) => (holding = resolve));
      const holder = other.db.transaction().execute(async (trx) => {
        await sql`select count(*) from ${sql.table(partition)}`.execute(trx);
        holding();
        await released;
      });
      try {
        await held;
        const busy = await run();
        expect(busy.dropped).not.toContain(partition);
        expect(await listed()).toHaveLength(10);
        expect(body(await owner.get(`${URL}?limit=1000`)).meta).toEqual({ next_cursor: null });
      } finally {
        release();
        await holder;
        await other.close();
      }
      const free = await run();
      expect(free.dropped).toContain(partition);
      expect(await listed()).toEqual([]);
      expect(body(await owner.get(`${URL}?limit=1000`)).meta.raw_since).toBe(
        '2001-05-01T00:00:00.000Z',
      );
    },
  );

  it.runIf(target.name === 'postgres')(
    'makes a month partition, moving in the readings the default partition held for it',
    async () => {
      await ingest(batchOf(device.id, 3, { start: Date.parse('2001-11-10T00:00:00.000Z') }));
      const where = () =>
        sql<{ partition: string }>`select tableoid::regclass::text as partition from sensor_readings
          where device_id = ${device.id}`.execute(t.database.db);
      expect((await where()).rows.map((r) => r.partition)).toEqual(
        Array(3).fill('sensor_readings_default'),
      );
      await partitionFor(11);
      expect((await where()).rows.map((r) => r.partition)).toEqual(
        Array(3).fill('sensor_readings_p200111'),
      );
      expect(await listed()).toHaveLength(3);
    },
  );
});
