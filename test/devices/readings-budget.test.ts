import type { LightMyRequestResponse } from 'fastify';
import { beforeEach, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { changeDeviceStatus } from '../../src/modules/devices/index.js';
import { client, expectError, GENEROUS_LIMITS, randomId, type Client } from '../support/helpers.js';
import { createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { batchOf, newDevice, newToken, reading } from './helpers.js';

const URL = '/api/v1/sensor-readings';

/**
 * The readings budgets at the spec's values (5,000 per key or token and 10,000 per
 * workspace per 5 minutes; points are readings, not requests). Request budgets are
 * raised so that only the readings budgets can refuse.
 */
describeOnDatabases('Readings budgets', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });
  let device: { id: string };
  let counter = 0;
  beforeEach(async () => {
    device = await newDevice(owner);
  });

  /** `count` fresh readings (never repeats) in one request. */
  const send = (c: Client, count: number, deviceId = device.id) =>
    c.post(URL, {
      readings: batchOf(deviceId, count, { prefix: `b${counter++}` }),
    });
  /** Sends `total` readings in batches of up to 500; every batch must be accepted. */
  async function spend(c: Client, total: number, deviceId = device.id): Promise<void> {
    for (let left = total; left > 0; left -= 500) {
      const res = await send(c, Math.min(500, left), deviceId);
      expect(res.statusCode, res.body).toBe(201);
    }
  }
  const storedCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('sensor_readings')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('workspace_id', '=', lab.workspaceId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const expectBudget = (res: LightMyRequestResponse, budget: RegExp) => {
    expectError(res, 429, 'RATE_LIMIT_EXCEEDED', budget);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  };

  it('accepts the 5,000th reading of a key and refuses the 5,001st', async () => {
    await spend(owner, 4999);
    // Two more would make 5,001: the whole batch is refused and spends nothing.
    expectBudget(await send(owner, 2), /key/);
    expect((await send(owner, 1)).statusCode).toBe(201);
    expectBudget(await owner.post(URL, reading(device.id)), /key/);
    expect(await storedCount()).toBe(5000);
  });

  it('spends nothing on refused batches: 409, 404 and 422 leave the whole budget', async () => {
    const stopped = await newDevice(owner, { name: 'Paused' });
    await inTransaction(t.database.db, (trx) => changeDeviceStatus(trx, stopped.id, 'paused'));
    for (let i = 0; i < 10; i++) {
      expectError(await send(owner, 500, stopped.id), 409, 'DEVICE_INGEST_DISABLED');
    }
    expectError(await send(owner, 500, randomId()), 404, 'NOT_FOUND');
    const batch = batchOf(device.id, 500, { prefix: 'bad' });
    (batch[499] as Record<string, unknown>).unit = '';
    expectError(await owner.post(URL, { readings: batch }), 422, 'VALIDATION_ERROR');
    await spend(owner, 5000);
    expectBudget(await send(owner, 1), /key/);
    expect(await storedCount()).toBe(5000);
  });

  it("counts a device token's readings apart from the keys, and every credential against the workspace's 10,000", async () => {
    const token = client(t, await newToken(owner, device.id));
    await spend(token, 5000);
    expectBudget(await send(token, 1), /token|key/);
    // The owner's key has its own 5,000.
    await spend(owner, 5000);
    expectBudget(await send(owner, 1), /key/);
    // The workspace has spent its 10,000: a third credential is refused too.
    const member = client(t, await lab.actor('member'));
    expectBudget(await send(member, 1), /workspace/);
    expect(await storedCount()).toBe(10_000);
    // Another workspace has its own budgets.
    const other = await createLab(t.database, { name: 'Other lab' });
    const otherOwner = client(t, other.owner);
    const theirs = await newDevice(otherOwner);
    expect((await send(otherOwner, 500, theirs.id)).statusCode).toBe(201);
  });
});
