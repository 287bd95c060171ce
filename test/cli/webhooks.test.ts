import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { cliTargets, runInProcess, tempDir } from './support.js';

/** `vitro webhook …`, `vitro alert-rule …` and `vitro alert list`. */
describe.each(cliTargets())('vitro webhook and alert-rule on $name', (target) => {
  const lab = async () => {
    const env = { ...target.env(), WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' };
    const cli = (...argv: string[]) => runInProcess(env, ...argv);
    const ws = (await cli('workspace', 'create', '--name', `Hooks ${Date.now()}`)).out.id as string;
    return { env, cli, ws };
  };

  it('creates an endpoint (its secret shown once), lists, updates, disables, rotates and deletes it', async () => {
    const { cli, ws } = await lab();
    const created = await cli(
      'webhook',
      'create',
      '--workspace',
      ws,
      '--url',
      'http://127.0.0.1:9/hooks',
      '--description',
      'LIMS',
      '--event-types',
      'plant.created,sensor_alert.opened',
    );
    expect(created.code).toBe(0);
    expect(created.out).toMatchObject({
      url: 'http://127.0.0.1:9/hooks',
      description: 'LIMS',
      event_types: ['plant.created', 'sensor_alert.opened'],
      status: 'enabled',
    });
    expect(created.out.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const id = created.out.id as string;
    const shown = Object.fromEntries(
      Object.entries(created.out as object).filter(([field]) => field !== 'secret'),
    );
    expect((await cli('webhook', 'list', '--workspace', ws)).out).toEqual({ endpoints: [shown] });
    expect((await cli('webhook', 'show', '--endpoint', id)).out).toEqual(shown);
    const updated = await cli('webhook', 'update', '--endpoint', id, '--event-types', 'all');
    expect(updated.out.event_types).toBeNull();
    const disabled = await cli('webhook', 'disable', '--endpoint', id, '--reason', 'maintenance');
    expect(disabled.out).toMatchObject({ status: 'disabled', disabled_reason: 'maintenance' });
    expect((await cli('webhook', 'enable', '--endpoint', id)).out).toMatchObject({
      status: 'enabled',
      disabled_reason: null,
    });
    const rotated = await cli('webhook', 'rotate-secret', '--endpoint', id);
    expect(rotated.out.secret).toMatch(/^whsec_/);
    expect(rotated.out.secret).not.toBe(created.out.secret);
    expect(rotated.out.previous_secret_expires_at).not.toBeNull();
    expect((await cli('webhook', 'deliveries', '--endpoint', id)).out).toEqual({ deliveries: [] });
    expect((await cli('webhook', 'delete', '--endpoint', id)).out.id).toBe(id);
    const gone = await cli('webhook', 'show', '--endpoint', id);
    expect(gone.code).not.toBe(0);
    expect(gone.err).toEqual({ error: 'Webhook endpoint not found' });
  });

  it('refuses a URL the guard refuses, and an unknown event type, changing nothing', async () => {
    const { cli, ws } = await lab();
    for (const [url, error] of [
      ['http://hooks.example.org/x', /must be an https address/],
      ['https://10.0.0.5/x', /must be a public address; 10\.0\.0\.5 is a private/],
      ['https://user:pw@hooks.example.org/x', /user name or password/],
    ] as const) {
      const res = await cli('webhook', 'create', '--workspace', ws, '--url', url);
      expect(res.code).not.toBe(0);
      expect(res.stdout).toBe('');
      expect(res.err.error).toMatch(error);
    }
    const typo = await cli(
      'webhook',
      'create',
      '--workspace',
      ws,
      '--url',
      'https://hooks.example.org/x',
      '--event-types',
      'plant.creatd',
    );
    expect(typo.code).not.toBe(0);
    expect(typo.err.error).toMatch(/^event_types\[0\]: must be one of: plant\.created/);
    expect((await cli('webhook', 'list', '--workspace', ws)).out).toEqual({ endpoints: [] });
  });

  it('creates, lists, updates and deletes alert rules; lists alerts', async () => {
    const { cli, ws } = await lab();
    const room = newId();
    const file = join(tempDir(), 'rooms.json');
    writeFileSync(file, JSON.stringify({ rooms: [{ id: room, name: 'Growth room A' }] }));
    expect((await cli('import', '--workspace', ws, '--file', file)).code).toBe(0);
    const created = await cli(
      'alert-rule',
      'create',
      '--workspace',
      ws,
      '--name',
      'Too warm',
      '--type',
      'temperature',
      '--room',
      room,
      '--above',
      '28',
      '--minutes',
      '10',
      '--hysteresis',
      '0.5',
    );
    expect(created.code).toBe(0);
    expect(created.out).toMatchObject({
      name: 'Too warm',
      sensor_type: 'temperature',
      room_id: room,
      device_id: null,
      condition: 'above',
      threshold: 28,
      duration_minutes: 10,
      hysteresis: 0.5,
      enabled: true,
      state: 'ok',
    });
    const silent = await cli(
      'alert-rule',
      'create',
      '--workspace',
      ws,
      '--name',
      'Dead sensor',
      '--type',
      'humidity',
      '--room',
      room,
      '--no-readings',
      '--minutes',
      '15',
    );
    expect(silent.out).toMatchObject({ condition: 'no_readings', threshold: null });
    expect((await cli('alert-rule', 'list', '--workspace', ws)).out.rules).toHaveLength(2);
    const updated = await cli(
      'alert-rule',
      'update',
      '--rule',
      created.out.id,
      '--threshold',
      '29',
      '--enabled',
      'false',
    );
    expect(updated.out).toMatchObject({ threshold: 29, enabled: false });
    expect((await cli('alert-rule', 'delete', '--rule', silent.out.id)).out.id).toBe(silent.out.id);
    expect((await cli('alert-rule', 'list', '--workspace', ws)).out.rules).toHaveLength(1);
    const noTarget = await cli(
      'alert-rule',
      'create',
      '--workspace',
      ws,
      '--name',
      'x',
      '--type',
      'temperature',
      '--room',
      '00000000-0000-4000-8000-000000000000',
      '--above',
      '28',
    );
    expect(noTarget.code).not.toBe(0);
    expect(noTarget.err).toEqual({ error: 'Room not found' });
    const twoConditions = await cli(
      'alert-rule',
      'create',
      '--workspace',
      ws,
      '--name',
      'x',
      '--type',
      'temperature',
      '--room',
      '00000000-0000-4000-8000-000000000000',
      '--above',
      '28',
      '--below',
      '10',
    );
    expect(twoConditions.err.error).toMatch(/exactly one of --above, --below, --no-readings/);
    expect((await cli('alert', 'list', '--workspace', ws, '--status', 'open')).out).toEqual({
      alerts: [],
    });
  });
});
