import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { cliTargets, runInProcess } from './support.js';

/** `vitro device list` and `vitro device set-status`, against the API's own view of the devices. */
describe.each(cliTargets())('vitro device on $name', (target) => {
  let env: Record<string, string>;
  let ws: string;
  let key: string;
  let app: FastifyInstance;
  const cli = (...argv: string[]) => runInProcess(env, ...argv);
  beforeAll(async () => {
    env = target.env();
    ws = (await cli('workspace', 'create', '--name', `Device lab ${Date.now()}`, '--plan', 'hobby'))
      .out.id;
    const owner = (await cli('member', 'add', '--workspace', ws, '--name', 'O', '--role', 'owner'))
      .out.id;
    key = (await cli('key', 'create', '--member', owner)).out.key;
    // A server on the same database: the CLI may run while it serves.
    app = await buildApp(loadConfig({ ...env, VITRO_SECRET: 'x'.repeat(40) }), { logger: false });
  });
  afterAll(() => app.close());

  async function api(method: 'GET' | 'POST', url: string, payload?: object, token = key) {
    const res = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload }),
    });
    return { status: res.statusCode, body: res.json() };
  }

  it('lists the devices of a workspace, retired ones too, oldest first', async () => {
    const empty = await cli('workspace', 'create', '--name', `Empty ${Date.now()}`);
    expect((await cli('device', 'list', '--workspace', empty.out.id)).out).toEqual({ devices: [] });
    const first = (await api('POST', '/api/v1/devices', { name: 'First', hardware: 'ESP32' })).body
      .data;
    const second = (await api('POST', '/api/v1/devices', { name: 'Second' })).body.data;
    await cli('device', 'set-status', '--device', second.id, '--status', 'retired');
    const { code, out } = await cli('device', 'list', '--workspace', ws);
    expect(code).toBe(0);
    expect(out.devices.map((d: { id: string }) => d.id)).toEqual([first.id, second.id]);
    expect(out.devices[0]).toEqual(first);
    expect(out.devices[1]).toMatchObject({ id: second.id, status: 'retired' });
  });

  it('refuses an unknown workspace with an error and exit code 1', async () => {
    const res = await cli('device', 'list', '--workspace', '00000000-0000-4000-8000-000000000000');
    expect(res.code).not.toBe(0);
    expect(res.err.error).toMatch(/not found|workspace/i);
  });

  it('pauses (revoking tokens, refusing readings), re-activates and retires a device', async () => {
    const device = (await api('POST', '/api/v1/devices', { name: 'Probe' })).body.data;
    const minted = (await api('POST', `/api/v1/devices/${device.id}/tokens`)).body.data;
    const beat = () => api('POST', `/api/v1/devices/${device.id}/heartbeat`, {}, minted.token);
    const ingest = () =>
      api('POST', '/api/v1/sensor-readings', {
        device_id: device.id,
        type: 'co2',
        value: 410,
        unit: 'ppm',
      });
    expect((await beat()).status).toBe(200);

    const paused = await cli('device', 'set-status', '--device', device.id, '--status', 'paused');
    expect(paused.out).toEqual({ id: device.id, status: 'paused', revoked_tokens: 1 });
    expect((await beat()).status).toBe(401);
    expect((await ingest()).body.code).toBe('DEVICE_INGEST_DISABLED');

    const active = await cli('device', 'set-status', '--device', device.id, '--status', 'active');
    expect(active.out).toEqual({ id: device.id, status: 'active', revoked_tokens: 0 });
    expect((await ingest()).status).toBe(201);
    // Old tokens stay revoked.
    expect((await beat()).status).toBe(401);

    const retired = await cli('device', 'set-status', '--device', device.id, '--status', 'retired');
    expect(retired.out).toMatchObject({ status: 'retired', revoked_tokens: 0 });
    expect((await ingest()).body.code).toBe('DEVICE_INGEST_DISABLED');
    const listed = (await cli('device', 'list', '--workspace', ws)).out.devices as {
      id: string;
      status: string;
    }[];
    expect(listed.find((d) => d.id === device.id)!.status).toBe('retired');
  });

  it('refuses an unknown device or status and changes nothing', async () => {
    const unknown = await cli(
      'device',
      'set-status',
      '--device',
      '00000000-0000-4000-8000-000000000000',
      '--status',
      'paused',
    );
    expect(unknown.code).not.toBe(0);
    expect(unknown.err.error).toMatch(/not found/i);
    const device = (await api('POST', '/api/v1/devices', { name: 'Kept' })).body.data;
    const bad = await cli('device', 'set-status', '--device', device.id, '--status', 'broken');
    expect(bad.code).not.toBe(0);
    const listed = (await cli('device', 'list', '--workspace', ws)).out.devices as {
      id: string;
      status: string;
    }[];
    expect(listed.find((d) => d.id === device.id)!.status).toBe('active');
  });
});
