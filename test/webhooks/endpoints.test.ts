import { expect, it } from 'vitest';
import { REFUSED_URL_HOSTS } from '../files/refused-addresses.js';
import {
  client,
  dataOf,
  expectError,
  GENEROUS_LIMITS,
  listAll,
  newPlant,
} from '../support/helpers.js';
import { createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

const URL = '/api/v1/webhook-endpoints';
const ENDPOINT_KEYS = [
  'created_at',
  'description',
  'disabled_at',
  'disabled_reason',
  'event_types',
  'failing_since',
  'id',
  'last_success_at',
  'previous_secret_expires_at',
  'status',
  'updated_at',
  'url',
];

// The lab names one LAN host; no address range is allowed, loopback included.
describeOnDatabases('webhook endpoints', (target) => {
  const { t, lab, owner } = labSuite(target, {
    env: { ...GENEROUS_LIMITS, WEBHOOK_ALLOWED_HOSTS: 'lims.lab.local' },
  });

  it('answers the secret once, at creation; reads and lists never show it', async () => {
    const created = dataOf(
      await owner.post(URL, {
        url: 'https://hooks.example.org/vitro',
        description: 'LIMS',
        event_types: ['plant.created', 'explant.transfer'],
      }),
      201,
    );
    expect(Object.keys(created).sort()).toEqual([...ENDPOINT_KEYS, 'secret'].sort());
    expect(created).toMatchObject({
      url: 'https://hooks.example.org/vitro',
      description: 'LIMS',
      event_types: ['plant.created', 'explant.transfer'],
      status: 'enabled',
      disabled_reason: null,
      failing_since: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = dataOf(await owner.get(`${URL}/${created.id}`), 200);
    expect(Object.keys(read).sort()).toEqual(ENDPOINT_KEYS);
    expect(await listAll(owner, URL)).toEqual([read]);
    // A retry with the same Idempotency-Key creates another endpoint: the secret is never stored.
    const key = { 'idempotency-key': 'create-endpoint-1' };
    const a = dataOf(await owner.post(URL, { url: 'https://a.example.org/' }, key), 201);
    const b = dataOf(await owner.post(URL, { url: 'https://a.example.org/' }, key), 201);
    expect(a.id).not.toBe(b.id);
  });

  it('needs the admin role and the webhook scopes', async () => {
    const manager = client(t, await lab.actor('manager'));
    expectError(await manager.get(URL), 403, 'FORBIDDEN', /needs the admin role or above/);
    expectError(
      await manager.post(URL, { url: 'https://hooks.example.org/' }),
      403,
      'FORBIDDEN',
      /admin role/,
    );
    const readOnly = client(t, await lab.actor('admin', { scopes: ['read:webhooks'] }));
    dataOf(await readOnly.get(URL), 200);
    expectError(
      await readOnly.post(URL, { url: 'https://hooks.example.org/' }),
      403,
      'FORBIDDEN',
      /lacks the scope write:webhooks/,
    );
    const admin = client(t, await lab.actor('admin'));
    dataOf(await admin.post(URL, { url: 'https://hooks.example.org/' }), 201);
    expect(await listAll(owner, URL)).toHaveLength(1);
  });

  it.each(REFUSED_URL_HOSTS)('refuses an endpoint at %s, creating nothing', async (host) => {
    expectError(
      await owner.post(URL, { url: `https://${host}/hooks` }),
      422,
      'VALIDATION_ERROR',
      /^url: must be a public address; /,
    );
    expect(await listAll(owner, URL)).toEqual([]);
  });

  it('refuses plain http, credentials and non-URLs; http only to an allowed host', async () => {
    for (const [url, error] of [
      ['http://hooks.example.org/', /^url: must be an https address/],
      ['ftp://hooks.example.org/', /^url: must be an https address/],
      ['https://user:secret@hooks.example.org/', /user name or password/],
      ['hooks.example.org/x', /^url: is not a valid URL/],
      ['http://10.0.0.1/', /^url: must be an https address/],
    ] as const) {
      expectError(await owner.post(URL, { url }), 422, 'VALIDATION_ERROR', error);
    }
    expect(await listAll(owner, URL)).toEqual([]);
    // WEBHOOK_ALLOWED_HOSTS names this host: the lab's own LAN, where http is allowed.
    dataOf(await owner.post(URL, { url: 'http://LIMS.lab.local:8080/hooks' }), 201);
    expectError(
      await owner.post(URL, { url: 'http://other.lab.local/' }),
      422,
      'VALIDATION_ERROR',
      /^url: must be an https address/,
    );
  });

  it('refuses unknown event types and unknown fields', async () => {
    expectError(
      await owner.post(URL, { url: 'https://h.example.org/', event_types: ['plant.deleted'] }),
      422,
      'VALIDATION_ERROR',
      /^event_types\[0\]: must be one of/,
    );
    expectError(
      await owner.post(URL, { url: 'https://h.example.org/', secret: 'whsec_mine' }),
      422,
      'VALIDATION_ERROR',
      /unknown field "secret"/,
    );
    expectError(
      await owner.post(URL, { url: 'https://h.example.org/', event_types: [] }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('updates, disables, enables, rotates and deletes', async () => {
    const created = dataOf(await owner.post(URL, { url: 'https://hooks.example.org/a' }), 201);
    const at = `${URL}/${created.id}`;
    const updated = dataOf(
      await owner.patch(at, { url: 'https://hooks.example.org/b', event_types: ['plant.updated'] }),
      200,
    );
    expect(updated).toMatchObject({
      url: 'https://hooks.example.org/b',
      event_types: ['plant.updated'],
    });
    expectError(
      await owner.patch(at, { url: 'https://169.254.169.254/' }),
      422,
      'VALIDATION_ERROR',
    );
    expectError(await owner.patch(at, {}), 422, 'VALIDATION_ERROR');
    const disabled = dataOf(await owner.post(`${at}/disable`, {}), 200);
    expect(disabled).toMatchObject({ status: 'disabled', disabled_reason: 'disabled by hand' });
    expect(disabled.disabled_at).not.toBeNull();
    const enabled = dataOf(await owner.post(`${at}/enable`, undefined), 200);
    expect(enabled).toMatchObject({ status: 'enabled', disabled_reason: null, disabled_at: null });
    const rotated = dataOf(await owner.post(`${at}/rotate-secret`, undefined), 200);
    expect(rotated.secret).not.toBe(created.secret);
    expect(Date.parse(rotated.previous_secret_expires_at) - Date.parse(rotated.updated_at)).toBe(
      24 * 3_600_000,
    );
    const deleted = dataOf(
      await t.request({ method: 'DELETE', url: at, headers: lab.owner.headers }),
      200,
    );
    expect(deleted.id).toBe(created.id);
    expectError(await owner.get(at), 404, 'NOT_FOUND', /^Webhook endpoint not found$/);
  });

  it('keeps endpoints to their workspace, and at most 20 per workspace', async () => {
    const other = client(t, (await createLab(t.database)).owner);
    const theirs = dataOf(await other.post(URL, { url: 'https://hooks.example.org/' }), 201);
    expectError(await owner.get(`${URL}/${theirs.id}`), 404, 'NOT_FOUND');
    expectError(await owner.get(`${URL}/${theirs.id}/deliveries`), 404, 'NOT_FOUND');
    expectError(await owner.post(`${URL}/${theirs.id}/disable`, {}), 404, 'NOT_FOUND');
    expectError(await owner.get(`${URL}/not-a-uuid`), 404, 'NOT_FOUND');
    for (let i = 0; i < 20; i++) {
      dataOf(await owner.post(URL, { url: `https://hooks.example.org/${i}` }), 201);
    }
    expectError(
      await owner.post(URL, { url: 'https://hooks.example.org/21' }),
      409,
      'CONFLICT',
      /at most 20 webhook endpoints/,
    );
    expect(await listAll(owner, URL)).toHaveLength(20);
  });

  it('starts a new endpoint after the events recorded before it', async () => {
    await newPlant(owner);
    const created = dataOf(await owner.post(URL, { url: 'https://hooks.example.org/' }), 201);
    const rows = await t.database.db
      .selectFrom('webhook_endpoints')
      .select('feed_seq')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(Number(rows.feed_seq)).toBe(1);
  });
});
