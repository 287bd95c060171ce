import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import {
  visitRawReadings,
  visitRollupFigures,
} from '../../src/modules/readings/rollups.repository.js';
import {
  addRoom,
  client,
  dataOf,
  expectError,
  GENEROUS_LIMITS,
  listAll,
  randomId,
} from '../support/helpers.js';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { newDevice, newToken, reading } from './helpers.js';
import { BUCKET_MINUTES, summaryOf, type RawReading } from './summary-reference.js';

const URL = '/api/v1/sensor-readings';
const SUMMARY = `${URL}/summary`;
const BUCKETS = Object.keys(BUCKET_MINUTES) as (keyof typeof BUCKET_MINUTES)[];

/** Values whose float sums depend on their order; all have few decimals. */
function valueAt(i: number): number {
  const special = [0.1, 0.2, 0.3, 0.7, 1e-7, 123456789.125, -40.25, 1e15 + 0.5, 5e-9];
  if (i % 7 === 0) return special[(i / 7) % special.length]!;
  return Math.round(Math.sin(i) * 10000) / 100;
}

const at = (base: string, seconds: number) =>
  new Date(Date.parse(base) + Math.round(seconds * 1000)).toISOString();

describeOnDatabases('GET /sensor-readings/summary', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });

  const ingest = async (readings: object[]) => dataOf(await owner.post(URL, { readings }), 201);
  const summary = async (query: string) => body(await owner.get(`${SUMMARY}?${query}`));

  /**
   * Two devices in room A, two types, temperature in two units, some readings sent
   * for room B; sent out of order, late ones filling minutes already summarised,
   * repeats (in a batch and across batches) and readings taken at the same instant.
   */
  async function seed() {
    const roomA = await addRoom(t.database, lab.workspaceId, 'A');
    const roomB = await addRoom(t.database, lab.workspaceId, 'B');
    const first = await newDevice(owner, { name: 'First', room_id: roomA });
    const second = await newDevice(owner, { name: 'Second', room_id: roomA });
    const base = '2026-11-20T05:00:00.000Z';
    const make = (i: number) => {
      const device = i % 5 === 0 ? second : first;
      const fields: Record<string, unknown> = {
        value: valueAt(i),
        external_id: `e-${i}`,
        // Every third reading shares its instant with the one before.
        recorded_at: at(base, (i - (i % 3 === 2 ? 1 : 0)) * 37.25 - 3600),
      };
      if (i % 4 === 1) Object.assign(fields, { type: 'humidity', unit: '%' });
      if (i % 10 === 5) Object.assign(fields, { unit: 'F' });
      if (i % 6 === 3) fields.room_id = roomB;
      return reading(device.id, fields);
    };
    const all = Array.from({ length: 420 }, (_, i) => make(i));
    // Late first: the later half arrives before the earlier one, each shuffled.
    const order = all.map((_, i) => i).sort((a, b) => ((a * 7919) % 421) - ((b * 7919) % 421));
    const later = order.filter((i) => i >= 210);
    const earlier = order.filter((i) => i < 210);
    await ingest(later.slice(0, 150).map((i) => all[i]!));
    await ingest([...earlier.slice(0, 100), ...later.slice(140, 210)].map((i) => all[i]!));
    await ingest([...earlier.slice(90), ...earlier.slice(0, 5)].map((i) => all[i]!));
    // A repeat inside one batch, and one more reading a day earlier (for 1d buckets).
    await ingest([
      all[3]!,
      all[3]!,
      reading(first.id, { value: 9.5, recorded_at: '2026-11-19T23:59:59.999Z' }),
    ]);
    const stored = (await listAll(owner, URL, 1000)) as RawReading[];
    expect(stored).toHaveLength(421);
    return { roomA, roomB, first, second, stored };
  }

  it('agrees exactly with the raw readings, for every bucket, range and filter', async () => {
    const { roomA, roomB, first, stored } = await seed();
    const ranges = [
      ['2026-11-19T00:00:00.000Z', '2026-11-20T23:59:59.999Z'],
      ['2026-11-20T04:07:13.250Z', '2026-11-20T06:42:05.001Z'],
      ['2026-11-20T04:30:10.000Z', '2026-11-20T04:30:40.000Z'],
      ['2026-11-20T05:00:00.000Z', '2026-11-20T06:00:00.000Z'],
      ['2026-11-19T23:59:59.999Z', '2026-11-20T04:01:00.000Z'],
    ] as const;
    const filters: [string, (r: RawReading) => boolean][] = [
      [`device_id=${first.id}`, (r) => r.device_id === first.id],
      [
        `device_id=${first.id}&type=temperature`,
        (r) => r.device_id === first.id && r.type === 'temperature',
      ],
      [`room_id=${roomA}`, (r) => r.room_id === roomA],
      [
        `device_id=${first.id}&room_id=${roomB}`,
        (r) => r.device_id === first.id && r.room_id === roomB,
      ],
    ];
    let compared = 0;
    for (const bucket of BUCKETS) {
      for (const [since, until] of ranges) {
        for (const [filter, keep] of filters) {
          const answer = await summary(`${filter}&bucket=${bucket}&since=${since}&until=${until}`);
          const expected = summaryOf(stored.filter(keep), { bucket, since, until });
          expect(answer, `${filter} ${bucket} ${since}..${until}`).toEqual({
            ok: true,
            data: expected,
            meta: { since, until, raw_since: null },
          });
          compared += expected.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('reads the same figures queued behind an open transaction as at once', async () => {
    // On SQLite a read that finds another transaction open on the one connection
    // waits in Kysely's queue and gets objects back, not the raw arrays of the fast path.
    const { first } = await seed();
    const filter = { deviceId: first.id };
    const read = () => {
      const seen: unknown[] = [];
      const visits = [
        ...([1, 5] as const).map((span) =>
          visitRollupFigures(
            t.database.db,
            lab.workspaceId,
            filter,
            { span, from: 29_919_120, to: 29_919_300, bucketMinutes: 15 },
            (...visit) => seen.push(['rollup', span, ...visit]),
          ),
        ),
        visitRawReadings(
          t.database.db,
          lab.workspaceId,
          filter,
          '2026-11-20T04:07:13.250Z',
          '2026-11-20T06:42:05.001Z',
          (...visit) => seen.push(['raw', ...visit]),
        ),
      ];
      // Sorted: PostgreSQL's groups come in no set order.
      return Promise.all(visits).then(() =>
        seen
          .map((v) =>
            JSON.stringify(v, (_key, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x)),
          )
          .sort(),
      );
    };
    const atOnce = await read();
    let queued: Promise<string[]> | undefined;
    await inTransaction(t.database.db, async (trx) => {
      await sql`select 1`.execute(trx);
      // Decided now, while the transaction is open: SQLite answers it after the commit.
      queued = read();
      await sql`select 1`.execute(trx);
    });
    expect(queued).toBeDefined();
    expect(await queued).toEqual(atOnce);
    expect(atOnce.filter((v) => v.startsWith('["rollup"')).length).toBeGreaterThan(10);
    expect(atOnce.filter((v) => v.startsWith('["raw"')).length).toBeGreaterThan(100);
  });

  it('answers one series per type and unit, oldest first, for a chart to draw', async () => {
    const { first } = await seed();
    const data = (
      await summary(
        `device_id=${first.id}&bucket=1h&since=2026-11-20T04:00:00Z&until=2026-11-20T08:59:59.999Z`,
      )
    ).data as { start: string; type: string; unit: string }[];
    expect([...new Set(data.map((b) => `${b.type} ${b.unit}`))].sort()).toEqual([
      'humidity %',
      'temperature C',
    ]);
    expect(data.map((b) => b.start)).toEqual([...data.map((b) => b.start)].sort());
    expect(data.map((b) => b.start)[0]).toBe('2026-11-20T04:00:00.000Z');
  });

  it('flags a bucket holding a value no sensor of its type can report; the value stays as sent', async () => {
    const device = await newDevice(owner);
    await ingest([
      reading(device.id, {
        type: 'humidity',
        unit: '%',
        value: 250,
        recorded_at: '2026-11-20T05:10:00Z',
      }),
      reading(device.id, {
        type: 'humidity',
        unit: '%',
        value: 61,
        recorded_at: '2026-11-20T05:20:00Z',
      }),
      reading(device.id, {
        type: 'humidity',
        unit: '%',
        value: 60,
        recorded_at: '2026-11-20T06:10:00Z',
      }),
      reading(device.id, { unit: '°C', value: -51, recorded_at: '2026-11-20T05:10:00Z' }),
      reading(device.id, { unit: '°F', value: -51, recorded_at: '2026-11-20T05:10:00Z' }),
    ]);
    const { data } = await summary(
      `device_id=${device.id}&bucket=1h&since=2026-11-20T05:00:00Z&until=2026-11-20T06:59:59Z`,
    );
    expect(
      (
        data as { start: string; type: string; unit: string; max: number; out_of_range: boolean }[]
      ).map((b) => [b.start.slice(11, 16), b.type, b.unit, b.max, b.out_of_range]),
    ).toEqual([
      ['05:00', 'humidity', '%', 250, true],
      ['05:00', 'temperature', '°C', -51, true],
      ['05:00', 'temperature', '°F', -51, false],
      ['06:00', 'humidity', '%', 60, false],
    ]);
  });

  it('defaults until to now and since to the oldest bucket the range may span, and says so', async () => {
    const device = await newDevice(owner);
    const stored = dataOf(await owner.post(URL, reading(device.id, { value: 3.25 })), 201);
    const answer = await summary(`device_id=${device.id}&bucket=1h`);
    expect(answer.data).toEqual([
      expect.objectContaining({
        count: 1,
        min: 3.25,
        max: 3.25,
        avg: 3.25,
        last: 3.25,
        last_at: stored.recorded_at,
      }),
    ]);
    const { since, until } = answer.meta as { since: string; until: string };
    expect(Date.parse(until)).toBeGreaterThanOrEqual(Date.parse(stored.recorded_at));
    const hours = (Date.parse(until) - Date.parse(since)) / 3600_000;
    expect(hours).toBeGreaterThan(2879);
    expect(hours).toBeLessThanOrEqual(2880);
    expect(since.endsWith(':00:00.000Z')).toBe(true);
  });

  it.each([
    ['bucket=1h', /device_id/],
    ['device_id=x&bucket=1h', /device_id/],
    [`room_id=${randomId()}`, /bucket/],
    [`room_id=${randomId()}&bucket=2h`, /bucket/],
    [`room_id=${randomId()}&bucket=1h&type=pressure`, /type/],
    [`room_id=${randomId()}&bucket=1h&since=yesterday`, /since/],
    [
      `room_id=${randomId()}&bucket=1h&since=2026-11-20T09:00:00Z&until=2026-11-20T08:00:00Z`,
      /until/,
    ],
    [
      `room_id=${randomId()}&bucket=1m&since=2026-11-01T00:00:00Z&until=2026-11-03T00:00:00Z`,
      /since.*2880/,
    ],
  ])('refuses %s with 422 VALIDATION_ERROR naming the parameter', async (query, named) => {
    expectError(await owner.get(`${SUMMARY}?${query}`), 422, 'VALIDATION_ERROR', named);
  });

  it('ignores query parameters it does not take (a cache-buster, limit)', async () => {
    const room = await addRoom(t.database, lab.workspaceId);
    const range = `room_id=${room}&bucket=1h&since=2026-11-01T00:00:00Z&until=2026-11-02T00:00:00Z`;
    expect(body(await owner.get(`${SUMMARY}?${range}&limit=5&_=1732791200`))).toEqual(
      body(await owner.get(`${SUMMARY}?${range}`)),
    );
  });

  it("matches ids in any case, never shows another workspace, and takes the list's access rules", async () => {
    const device = await newDevice(owner);
    await ingest([reading(device.id, { value: 1, recorded_at: '2026-11-20T08:00:00.000Z' })]);
    const range = 'bucket=1d&since=2026-11-20T00:00:00Z&until=2026-11-20T23:59:59Z';
    const upper = await summary(`device_id=${device.id.toUpperCase()}&${range}`);
    expect(upper.data).toHaveLength(1);
    const other = await createLab(t.database, { name: 'Other lab' });
    const them = client(t, other.owner);
    expect((await body(await them.get(`${SUMMARY}?device_id=${device.id}&${range}`))).data).toEqual(
      [],
    );
    const token = await newToken(owner, device.id);
    expectError(
      await client(t, token).get(`${SUMMARY}?device_id=${device.id}&${range}`),
      403,
      'DEVICE_TOKEN_NOT_ACCEPTED',
    );
    const narrow = await lab.actor('owner', { scopes: ['write:sensor_readings'] });
    expectError(
      await client(t, narrow).get(`${SUMMARY}?device_id=${device.id}&${range}`),
      403,
      'FORBIDDEN',
      /read:sensor_readings/,
    );
    const viewer = await lab.actor('viewer');
    expect(
      (await client(t, viewer).get(`${SUMMARY}?device_id=${device.id}&${range}`)).statusCode,
    ).toBe(200);
  });
});
