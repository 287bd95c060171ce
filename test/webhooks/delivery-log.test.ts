import { beforeAll, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { newId } from '../../src/kernel/ids.js';
import {
  insertAttempts,
  insertDeliveries,
  type AttemptRow,
  type DeliveryRow,
} from '../../src/modules/webhooks/deliveries.repository.js';
import { client, dataOf } from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

/**
 * The delivery log is stored by one prepared row statement on SQLite and one
 * statement of column arrays on PostgreSQL (db/bulk-insert.ts). What a receiver
 * answers is kept as it came, whatever its characters.
 */
const AWKWARD = [
  'thanks',
  '',
  'NULL',
  'a "quoted" {braced}, comma\\backslash',
  'line one\nline two\ttab',
  'ümlaut – 日本語 – 🌱',
  "it's",
  'x'.repeat(1024),
];

describeOnDatabases('delivery log store', (target) => {
  const { t, lab } = labSuite(
    target,
    { env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } },
    { shared: true },
  );
  let endpointId: string;
  beforeAll(async () => {
    const created = dataOf(
      await client(t, lab.owner).post('/api/v1/webhook-endpoints', {
        url: 'http://127.0.0.1:9/hooks',
      }),
      201,
    ) as { id: string };
    endpointId = created.id;
  });

  const delivery = (i: number, fields: Partial<DeliveryRow> = {}): DeliveryRow => ({
    id: newId(),
    workspace_id: lab.workspaceId,
    endpoint_id: endpointId,
    event_id: newId(),
    event_seq: 2 ** 40 + i,
    event_type: 'plant.created',
    status: i % 2 === 0 ? 'delivered' : 'pending',
    attempts: 1,
    schedule_step: 1,
    next_attempt_at: i % 2 === 0 ? null : '2026-11-27T12:00:05.000Z',
    lease_owner: null,
    last_attempt_at: '2026-11-27T12:00:00.000Z',
    last_status_code: i % 3 === 0 ? null : 200 + i,
    last_duration_ms: i,
    last_response: AWKWARD[i % AWKWARD.length]!,
    last_error: i % 3 === 0 ? 'connection refused' : null,
    created_at: '2026-11-27T12:00:00.000Z',
    updated_at: '2026-11-27T12:00:00.000Z',
    ...fields,
  });
  const attemptOf = (row: DeliveryRow): AttemptRow => ({
    id: newId(),
    workspace_id: row.workspace_id,
    delivery_id: row.id,
    attempted_at: row.last_attempt_at!,
    status_code: row.last_status_code,
    duration_ms: row.last_duration_ms!,
    response: row.last_response,
    error: row.last_error,
    next_attempt_at: row.next_attempt_at,
  });
  const stored = async (ids: string[]) => {
    const deliveries = await t.database.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', 'in', ids)
      .execute();
    const attempts = await t.database.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', 'in', ids)
      .execute();
    const byId = <R extends { id: string }>(rows: R[]) =>
      rows.map((row) => ({ ...row })).sort((a, b) => a.id.localeCompare(b.id));
    return { deliveries: byId(deliveries), attempts: byId(attempts) };
  };
  const asStored = (row: DeliveryRow | AttemptRow) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [
        key,
        // bigint columns come back as numbers on SQLite and as text or numbers on PostgreSQL
        key === 'event_seq' ? String(value) : value,
      ]),
    );

  it('stores every column as given, nulls and awkward text included, in one call of any size', async () => {
    const rows = Array.from({ length: 260 }, (_, i) => delivery(i));
    const attempts = rows.map(attemptOf);
    await inTransaction(t.database.db, async (trx) => {
      await insertDeliveries(trx, rows);
      await insertAttempts(trx, attempts);
    });
    const back = await stored(rows.map((row) => row.id));
    const normal = (list: object[]) =>
      list
        .map((row) => asStored(row as DeliveryRow))
        .sort((a, b) => String(a.id).localeCompare(String(b.id)));
    expect(normal(back.deliveries)).toEqual(normal(rows));
    expect(normal(back.attempts)).toEqual(normal(attempts));
  });

  it('skips a delivery already stored for its endpoint and event, and stores the rest', async () => {
    const first = delivery(1, { last_response: 'first' });
    await inTransaction(t.database.db, (trx) => insertDeliveries(trx, [first]));
    const again = delivery(1, { event_id: first.event_id, last_response: 'second' });
    const other = delivery(2);
    await inTransaction(t.database.db, (trx) => insertDeliveries(trx, [again, other]));
    const back = await stored([first.id, again.id, other.id]);
    expect(back.deliveries.map((row) => row.id).sort()).toEqual([first.id, other.id].sort());
    expect(back.deliveries.find((row) => row.id === first.id)?.last_response).toBe('first');
  });

  it('does nothing with no rows, and stores nothing when its transaction rolls back', async () => {
    await inTransaction(t.database.db, async (trx) => {
      await insertDeliveries(trx, []);
      await insertAttempts(trx, []);
    });
    const rows = [delivery(3), delivery(4)];
    await expect(
      inTransaction(t.database.db, async (trx) => {
        await insertDeliveries(trx, rows);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await stored(rows.map((row) => row.id))).deliveries).toEqual([]);
  });
});
