import { beforeEach, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/kernel/validation.js';
import { nestedArrays, newDevice, send } from '../devices/helpers.js';
import { dataOf, expectError, GENEROUS_LIMITS } from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

describeOnDatabases('Nesting depth of request JSON', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });
  let device: { id: string };
  beforeEach(async () => {
    device = await newDevice(owner);
  });

  const post = (url: string, text: string, key?: string) =>
    send(t, lab.owner, 'POST', url, {
      payload: text,
      headers: {
        'content-type': 'application/json',
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
    });
  const count = async (table: 'devices' | 'device_events') =>
    Number(
      (
        await t.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('workspace_id', '=', lab.workspaceId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  // The body is level 0 and `metadata` (or `payload`) level 1, so it may hold
  // MAX_JSON_DEPTH - 1 arrays one inside the other.
  const cases = [
    {
      table: 'devices' as const,
      url: '/api/v1/devices',
      field: 'metadata',
      text: (inner: string) => `{"name":"Probe","metadata":{"a":${inner}}}`,
    },
    {
      table: 'device_events' as const,
      url: '/api/v1/device-events',
      field: 'payload',
      text: (inner: string) =>
        `{"device_id":"${device.id}","event_type":"alert","payload":{"a":${inner}}}`,
    },
  ];

  for (const c of cases) {
    it(`${c.url}: keeps ${c.field} nested to the limit and reads it back`, async () => {
      const inner = nestedArrays(MAX_JSON_DEPTH - 1);
      const data = dataOf(await post(c.url, c.text(inner)), 201);
      expect(JSON.stringify((data[c.field] as { a: unknown }).a)).toBe(inner);
    });

    it(`${c.url}: refuses ${c.field} one level deeper with 422, storing nothing, key or not`, async () => {
      const before = await count(c.table);
      for (const depth of [MAX_JSON_DEPTH, 5_000, 100_000]) {
        for (const key of [undefined, `deep-${depth}-${c.table}`]) {
          expectError(
            await post(c.url, c.text(nestedArrays(depth)), key),
            422,
            'VALIDATION_ERROR',
            new RegExp(
              `^${c.field}: must not nest arrays and objects more than ${MAX_JSON_DEPTH} deep$`,
            ),
          );
        }
      }
      expect(await count(c.table)).toBe(before);
    });
  }
});
