import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { body, type Actor, type TestApp } from '../support/harness.js';
import { type Client, dataOf, type Json } from '../support/helpers.js';

/** The keys of a Device record (resources.md), in sorted order. */
export const DEVICE_KEYS = [
  'created_at',
  'firmware_version',
  'hardware',
  'id',
  'last_seen_at',
  'metadata',
  'name',
  'room_id',
  'status',
  'type',
  'updated_at',
];

export const TOKEN_KEYS = [
  'createdAt',
  'deviceId',
  'environment',
  'id',
  'lastUsedAt',
  'name',
  'prefix',
  'revokedAt',
  'status',
];

export const READING_KEYS = [
  'created_at',
  'device_id',
  'external_id',
  'id',
  'notes',
  'recorded_at',
  'room_id',
  'team_id',
  'type',
  'unit',
  'value',
];

export async function newDevice(c: Client, fields: Record<string, unknown> = {}): Promise<Json> {
  return dataOf(await c.post('/api/v1/devices', { name: 'Sensor A', ...fields }), 201);
}

/** A minted token for a device: the record and request headers carrying it. */
export async function newToken(
  c: Client,
  deviceId: string,
  fields: Record<string, unknown> = {},
): Promise<Json> {
  const token = dataOf(await c.post(`/api/v1/devices/${deviceId}/tokens`, fields), 201);
  return { ...token, headers: { authorization: `Bearer ${token.token}` } };
}

/** A request with any method, headers and raw payload. */
export function send(
  t: TestApp,
  actor: Pick<Actor, 'headers'>,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  options: { payload?: string | object; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return t.request({
    method,
    url,
    headers: { ...actor.headers, ...options.headers },
    ...(options.payload === undefined ? {} : { payload: options.payload }),
  });
}

export const del = (t: TestApp, actor: Pick<Actor, 'headers'>, url: string) =>
  send(t, actor, 'DELETE', url);

/** `n` arrays, one inside the other, as JSON text. */
export const nestedArrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

/** A reading body with sensible values; `fields` override. */
export const reading = (deviceId: string, fields: Record<string, unknown> = {}): Json => ({
  device_id: deviceId,
  type: 'temperature',
  value: 21.5,
  unit: 'C',
  ...fields,
});

/** `count` readings of one device, one a second from `start`, each with its external id. */
export function batchOf(
  deviceId: string,
  count: number,
  options: { start?: number; prefix?: string; from?: number } = {},
) {
  const start = options.start ?? Date.parse('2026-11-20T00:00:00.000Z');
  const from = options.from ?? 0;
  return Array.from({ length: count }, (_, i) =>
    reading(deviceId, {
      value: from + i,
      external_id: `${options.prefix ?? 'r'}-${from + i}`,
      recorded_at: new Date(start + (from + i) * 1000).toISOString(),
    }),
  );
}

/** Statuses (and codes of failures) of many responses, sorted, for concurrency checks. */
export const outcomes = (responses: LightMyRequestResponse[]) =>
  responses
    .map((r) => (r.statusCode < 300 ? `${r.statusCode}` : `${r.statusCode} ${body(r).code}`))
    .sort();

export function expectNoStore(res: LightMyRequestResponse): void {
  expect(res.headers['idempotent-replay']).toBeUndefined();
}
