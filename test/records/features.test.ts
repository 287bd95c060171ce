import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { inTransaction } from '../../src/db/transaction.js';
import { newId } from '../../src/kernel/ids.js';
import { importLabData } from '../../src/modules/import/import.service.js';
import { createRecordLookup } from '../../src/modules/index.js';
import { runInProcess, runProcess, tempDir } from '../cli/support.js';
import { body, createLab, TEST_SECRET, testConfig } from '../support/harness.js';

/**
 * The features of a workspace are switched with `vitro workspace set-features`,
 * from another process, while the server runs (possibly several servers on one
 * database). The very next request of every server answers accordingly.
 */
interface Setup {
  name: string;
  url: string;
  /** Opens a connection to the one database (migrated). */
  open(): Promise<Database>;
}

function setups(): Setup[] {
  const list: Setup[] = [];
  const dir = tempDir();
  const path = join(dir, 'lab.db');
  list.push({
    name: 'sqlite',
    url: `sqlite:${path}`,
    open: async () => {
      const database = openDatabase({ dialect: 'sqlite', path, url: `sqlite:${path}` });
      await migrateToLatest(database.db);
      return database;
    },
  });
  const postgresUrl = inject('postgresUrl');
  if (postgresUrl !== null) {
    list.push({
      name: 'postgres',
      url: postgresUrl,
      open: () => Promise.resolve(openDatabase({ dialect: 'postgres', url: postgresUrl })),
    });
  }
  return list;
}

describe.each(setups())('features switched by the CLI on $name', (setup) => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  const server = async (): Promise<{ app: FastifyInstance; database: Database }> => {
    const database = await setup.open();
    const app = await buildApp(testConfig(), { database, logger: false });
    closers.push(
      () => database.close(),
      () => app.close(),
    );
    return { app, database };
  };

  it('answers 402 FEATURE_NOT_INCLUDED on the next request of every server, and 200 again when back on', async () => {
    const one = await server();
    const two = await server();
    const lab = await createLab(one.database);
    const plantId = body(
      await one.app.inject({
        method: 'POST',
        url: '/api/v1/plants',
        headers: lab.owner.headers,
        payload: { species: 'Monstera deliciosa' },
      }),
    ).data.id as string;
    const equipmentId = newId();
    await inTransaction(one.database.db, (trx) =>
      importLabData(
        trx,
        lab.workspaceId,
        {
          equipment: [{ id: equipmentId, name: 'pH meter', category: 'ph_ec_meter' }],
          culture_line_prices: [
            { plant_id: plantId, list_price: { amount: '9.99', currency: 'USD' } },
          ],
          order_lines: [{ plant_id: plantId, quantity: 2, occurred_at: '2026-11-02T10:00:00Z' }],
        },
        createRecordLookup(),
      ),
    );
    const reads = {
      pricing: ['/api/v1/pricing/culture-lines', '/api/v1/pricing/events'],
      commerce: ['/api/v1/commerce/order-lines', '/api/v1/commerce/sell-through'],
      equipment_calibration: [`/api/v1/equipment/${equipmentId}/events`],
    };
    const answers = async (app: FastifyInstance) => {
      const out: Record<string, number> = {};
      for (const url of Object.values(reads).flat()) {
        out[url] = (
          await app.inject({ method: 'GET', url, headers: lab.owner.headers })
        ).statusCode;
      }
      for (const kind of ['calibration', 'used']) {
        const payload =
          kind === 'used'
            ? { kind, subject_type: 'plant_transfer', subject_id: plantId }
            : { kind };
        out[`POST ${kind}`] = (
          await app.inject({
            method: 'POST',
            url: `/api/v1/equipment/${equipmentId}/events`,
            headers: lab.owner.headers,
            payload,
          })
        ).statusCode;
      }
      out.equipment = (
        await app.inject({ method: 'GET', url: '/api/v1/equipment', headers: lab.owner.headers })
      ).statusCode;
      return out;
    };
    const expected = (on: readonly (keyof typeof reads)[]) => {
      const out: Record<string, number> = {};
      for (const [feature, urls] of Object.entries(reads)) {
        for (const url of urls) out[url] = on.includes(feature as keyof typeof reads) ? 200 : 402;
      }
      out['POST calibration'] = on.includes('equipment_calibration') ? 201 : 402;
      out['POST used'] = 201;
      out.equipment = 200;
      return out;
    };

    // Both servers have answered (and cached the key) before the switch.
    expect(await answers(one.app)).toEqual(
      expected(['pricing', 'commerce', 'equipment_calibration']),
    );
    expect(await answers(two.app)).toEqual(
      expected(['pricing', 'commerce', 'equipment_calibration']),
    );

    const env = {
      VITRO_DATA_DIR: tempDir(),
      DATABASE_URL: setup.url,
      VITRO_SECRET: TEST_SECRET,
      LOG_LEVEL: 'silent',
    };
    const off = await runProcess(
      env,
      'workspace',
      'set-features',
      '--workspace',
      lab.workspaceId,
      '--features',
      '',
    );
    expect(off.code).toBe(0);
    expect(await answers(one.app)).toEqual(expected([]));
    expect(await answers(two.app)).toEqual(expected([]));
    const refusal = await two.app.inject({
      method: 'GET',
      url: '/api/v1/commerce/sell-through',
      headers: lab.owner.headers,
    });
    expect(body(refusal)).toMatchObject({ ok: false, data: null, code: 'FEATURE_NOT_INCLUDED' });
    expect(body(refusal).error).toContain('commerce');

    const some = await runInProcess(
      env,
      'workspace',
      'set-features',
      '--workspace',
      lab.workspaceId,
      '--features',
      'pricing,equipment_calibration',
    );
    expect(some.code).toBe(0);
    expect(await answers(two.app)).toEqual(expected(['pricing', 'equipment_calibration']));
    expect(await answers(one.app)).toEqual(expected(['pricing', 'equipment_calibration']));
  }, 60_000);
});
