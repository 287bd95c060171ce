import { expect, it } from 'vitest';
import { SCOPES } from '../../src/kernel/access.js';
import { dataOf, GENEROUS_LIMITS, listAll } from '../support/helpers.js';
import { body, createLab } from '../support/harness.js';
import {
  CONSOLE_ORIGIN,
  cookieOf,
  sessionClient,
  signIn,
  type SessionClient,
} from '../support/sessions.js';
import { appSuite, describeOnDatabases } from '../support/suite.js';

/** The pages of a list a session reads, every item. */
async function all(session: SessionClient, url: string) {
  return listAll(
    {
      get: (u) => session.get(u),
      post: (u, payload) => session.post(u, payload),
      patch: (u, payload) => session.patch(u, payload),
    },
    url,
  );
}

describeOnDatabases('members, keys and devices from the console', (target) => {
  const { t } = appSuite(target, { env: GENEROUS_LIMITS });

  const CONSOLE_ONLY: [string, string, unknown?][] = [
    ['GET', '/api/v1/members'],
    ['POST', '/api/v1/members', { name: 'Ana', role: 'member' }],
    ['GET', '/api/v1/api-keys'],
    ['POST', '/api/v1/api-keys', {}],
  ];

  it('refuses API keys there with 403 SESSION_REQUIRED, device tokens as everywhere', async () => {
    const lab = await createLab(t.database);
    const device = await lab.deviceToken();
    const routes: [string, string, unknown?][] = [
      ...CONSOLE_ONLY,
      ['PATCH', `/api/v1/members/${lab.owner.memberId}`, { role: 'admin' }],
      ['DELETE', `/api/v1/members/${lab.owner.memberId}`],
      ['POST', `/api/v1/members/${lab.owner.memberId}/sign-in-links`],
      ['DELETE', `/api/v1/api-keys/${lab.owner.keyId}`],
      ['PATCH', `/api/v1/devices/${device.deviceId}`, { status: 'paused' }],
      ['GET', '/api/v1/session'],
      ['DELETE', '/api/v1/session'],
      ['DELETE', '/api/v1/sessions'],
    ];
    for (const [method, url, payload] of routes) {
      const send = (headers: Record<string, string>) =>
        t.request({
          method: method,
          url,
          headers,
          ...(payload === undefined ? {} : { payload: payload as object }),
        });
      const byKey = await send(lab.owner.headers);
      expect(byKey.statusCode, `${method} ${url}`).toBe(403);
      expect(body(byKey).code).toBe('SESSION_REQUIRED');
      expect(body(byKey).error).toContain('console');
      expect(body(await send(device.headers)).code).toBe('DEVICE_TOKEN_NOT_ACCEPTED');
    }
    // Nothing changed: the owner is still an owner, their key still works.
    const me = await t.request({ method: 'GET', url: '/api/v1/me', headers: lab.owner.headers });
    expect(dataOf(me, 200).role).toBe('owner');
    const tokens = await t.request({
      method: 'GET',
      url: `/api/v1/devices/${device.deviceId}/tokens`,
      headers: lab.owner.headers,
    });
    expect(dataOf(tokens, 200)[0].status).toBe('active');
    // Reading one device is the device list's rule: keys with read:devices, never a token.
    const read = (headers: Record<string, string>) =>
      t.request({ method: 'GET', url: `/api/v1/devices/${device.deviceId}`, headers });
    expect(dataOf(await read(lab.owner.headers), 200)).toMatchObject({ id: device.deviceId });
    expect(body(await read(device.headers)).code).toBe('DEVICE_TOKEN_NOT_ACCEPTED');
    const narrow = await lab.actor('member', { scopes: ['read:plants'] });
    expect(body(await read(narrow.headers))).toMatchObject({ code: 'FORBIDDEN' });
    expect(body(await read(narrow.headers)).error).toContain('read:devices');
  });

  it('is for admins and owners: a manager’s session is refused naming the role', async () => {
    const lab = await createLab(t.database);
    const manager = await signIn(t, (await lab.actor('manager')).memberId);
    for (const [method, url, payload] of CONSOLE_ONLY) {
      const res = await manager.request({
        method: method,
        url,
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(body(res).error).toBe(
        'This operation needs the admin role or above; you are a manager',
      );
    }
    const admin = await signIn(t, (await lab.actor('admin')).memberId);
    dataOf(await admin.get('/api/v1/members'), 200);
  });

  it('lists, adds, re-roles and removes members; whatever touches an owner needs an owner', async () => {
    const lab = await createLab(t.database);
    const adminActor = await lab.actor('admin');
    const admin = await signIn(t, adminActor.memberId);
    const owner = await signIn(t, lab.owner.memberId);

    const added = dataOf(
      await admin.post('/api/v1/members', {
        name: 'Ana Ruiz',
        email: 'ana@example.org',
        role: 'member',
      }),
      201,
    );
    expect(added).toEqual({
      id: expect.any(String),
      name: 'Ana Ruiz',
      email: 'ana@example.org',
      role: 'member',
      status: 'active',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const duplicate = await admin.post('/api/v1/members', {
      name: 'Ana again',
      email: 'ANA@example.org',
      role: 'viewer',
    });
    expect(body(duplicate)).toMatchObject({ code: 'DUPLICATE_ENTRY' });
    expect(body(duplicate).error).toMatch(/^email: /);
    const badEmail = await admin.post('/api/v1/members', {
      name: 'X',
      email: 'not-mail',
      role: 'viewer',
    });
    expect(body(badEmail)).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: 'email: "not-mail" is not an email address',
    });
    expect(body(await admin.post('/api/v1/members', { name: '', role: 'viewer' })).error).toBe(
      'name: must not be empty',
    );

    const members = await all(admin, '/api/v1/members');
    expect(members.map((m) => m.id)).toEqual(
      expect.arrayContaining([lab.owner.memberId, adminActor.memberId, added.id]),
    );
    expect(members).toHaveLength(3);

    expect(body(await admin.post('/api/v1/members', { name: 'Boss', role: 'owner' })).error).toBe(
      'Only an owner may add an owner',
    );
    const promoted = await admin.patch(`/api/v1/members/${added.id}`, { role: 'owner' });
    expect(body(promoted).error).toBe('Only an owner may make a member an owner');
    const demote = await admin.patch(`/api/v1/members/${lab.owner.memberId}`, { role: 'viewer' });
    expect(body(demote).error).toBe('Only an owner may change the role of an owner');
    expect(body(await admin.delete(`/api/v1/members/${lab.owner.memberId}`)).error).toBe(
      'Only an owner may remove an owner',
    );
    const self = await admin.patch(`/api/v1/members/${adminActor.memberId}`, { role: 'owner' });
    expect(body(self).code).toBe('FORBIDDEN');
    expect(body(self).error).toMatch(/^You cannot change the role of yourself/);
    expect(body(await owner.delete(`/api/v1/members/${lab.owner.memberId}`)).error).toMatch(
      /^You cannot remove yourself/,
    );

    expect(
      dataOf(await admin.patch(`/api/v1/members/${added.id}`, { role: 'manager' }), 200).role,
    ).toBe('manager');
    expect(
      dataOf(await owner.patch(`/api/v1/members/${added.id}`, { role: 'owner' }), 200).role,
    ).toBe('owner');
    expect(body(await admin.patch(`/api/v1/members/${added.id}`, { role: 'admin' })).code).toBe(
      'FORBIDDEN',
    );
    expect(
      dataOf(await owner.patch(`/api/v1/members/${added.id}`, { role: 'member' }), 200).role,
    ).toBe('member');

    // Removing ends the member's session on its next request.
    const ana = await signIn(t, added.id);
    dataOf(await ana.get('/api/v1/plants'), 200);
    const removed = dataOf(await admin.delete(`/api/v1/members/${added.id}`), 200);
    expect(removed).toMatchObject({ id: added.id, status: 'removed' });
    expect(body(await ana.get('/api/v1/plants')).code).toBe('UNAUTHORIZED');
    expect(dataOf(await admin.delete(`/api/v1/members/${added.id}`), 200).status).toBe('removed');
    expect(body(await admin.patch(`/api/v1/members/${added.id}`, { role: 'viewer' })).error).toBe(
      'member: has been removed',
    );

    // Another workspace's member is not found, like an unknown id.
    const otherLab = await createLab(t.database);
    for (const res of [
      await admin.patch(`/api/v1/members/${otherLab.owner.memberId}`, { role: 'viewer' }),
      await admin.delete(`/api/v1/members/${otherLab.owner.memberId}`),
      await admin.post(`/api/v1/members/${otherLab.owner.memberId}/sign-in-links`),
      await admin.patch('/api/v1/members/not-an-id', { role: 'viewer' }),
    ]) {
      expect(body(res)).toMatchObject({ code: 'NOT_FOUND', error: 'Member not found' });
    }
  });

  it('mints a sign-in link to hand over, at the address the console was opened at', async () => {
    const lab = await createLab(t.database);
    const admin = await signIn(t, (await lab.actor('admin')).memberId);
    const tech = await lab.actor('member');
    const res = await admin.request({
      method: 'POST',
      url: `/api/v1/members/${tech.memberId}/sign-in-links`,
      headers: { origin: 'http://lab-server:3000', host: 'lab-server:3000' },
    });
    const link = dataOf(res, 201);
    expect(link).toEqual({
      member_id: tech.memberId,
      url: expect.stringMatching(/^http:\/\/lab-server:3000\/sign-in#vsl_[A-Za-z0-9_-]{43}$/),
      expires_at: expect.any(String),
    });
    expect(res.headers['idempotent-replay']).toBeUndefined();
    const secret = (link.url as string).split('#')[1]!;
    const opened = await t.request({
      method: 'POST',
      url: '/api/v1/session',
      headers: { authorization: `Bearer ${secret}`, origin: 'http://lab-server:3000' },
    });
    const session = sessionClient(t, cookieOf(opened)!);
    expect(dataOf(await session.get('/api/v1/session'), 200).member.id).toBe(tech.memberId);
    expect(
      body(await admin.post(`/api/v1/members/${lab.owner.memberId}/sign-in-links`)).error,
    ).toBe('Only an owner may mint a sign-in link for an owner');
  });

  it('creates a key shown once, lists it without its secret, and revokes it', async () => {
    const lab = await createLab(t.database);
    const admin = await signIn(t, (await lab.actor('admin')).memberId);
    const tech = await lab.actor('member');
    const created = dataOf(
      await admin.post('/api/v1/api-keys', {
        member_id: tech.memberId,
        name: 'Label printer',
        scopes: ['read:plants', 'read:labels'],
      }),
      201,
    );
    expect(created).toMatchObject({
      name: 'Label printer',
      member_id: tech.memberId,
      environment: 'production',
      scopes: ['read:plants', 'read:labels'],
      revoked_at: null,
      key: expect.stringMatching(/^xpk_live_/),
    });
    expect(created.prefix).toBe((created.key as string).slice(0, 13));
    const keyHeaders = { authorization: `Bearer ${created.key}` };
    dataOf(await t.request({ method: 'GET', url: '/api/v1/plants', headers: keyHeaders }), 200);

    // The use is written just after the response that made it: wait until it lands.
    const listedKey = async () =>
      (await all(admin, '/api/v1/api-keys')).find((k) => k.id === created.id);
    await expect.poll(async () => (await listedKey())?.last_used_at ?? null).not.toBeNull();
    const keys = await all(admin, '/api/v1/api-keys');
    const listed = keys.find((k) => k.id === created.id);
    const withoutSecret = { ...created };
    delete withoutSecret.key;
    // Listed as created, with the use just made.
    expect(listed).toEqual({ ...withoutSecret, last_used_at: expect.any(String) });
    expect(JSON.stringify(keys)).not.toContain(created.key);
    expect(keys.map((k) => k.id)).toContain(lab.owner.keyId);

    const dev = dataOf(
      await admin.post('/api/v1/api-keys', {
        member_id: tech.memberId,
        environment: 'development',
      }),
      201,
    );
    expect(dev.key).toMatch(/^xpk_dev_/);
    expect(dev.scopes).toHaveLength(SCOPES.length);
    expect(dev.name).toBe('API key');
    expect(
      body(
        await admin.post('/api/v1/api-keys', {
          member_id: tech.memberId,
          scopes: ['read:everything'],
        }),
      ).code,
    ).toBe('VALIDATION_ERROR');
    expect(
      body(await admin.post('/api/v1/api-keys', { member_id: lab.owner.memberId })).error,
    ).toBe('Only an owner may create a key for an owner');

    const revoked = dataOf(await admin.delete(`/api/v1/api-keys/${created.id}`), 200);
    expect(revoked.revoked_at).toEqual(expect.any(String));
    expect(
      body(await t.request({ method: 'GET', url: '/api/v1/plants', headers: keyHeaders })).code,
    ).toBe('UNAUTHORIZED');
    expect(dataOf(await admin.delete(`/api/v1/api-keys/${created.id}`), 200).revoked_at).toBe(
      revoked.revoked_at,
    );
    expect(body(await admin.delete(`/api/v1/api-keys/${lab.owner.keyId}`)).error).toBe(
      'Only an owner may revoke a key of an owner',
    );
    const otherLab = await createLab(t.database);
    expect(body(await admin.delete(`/api/v1/api-keys/${otherLab.owner.keyId}`))).toMatchObject({
      code: 'NOT_FOUND',
      error: 'API key not found',
    });
  });

  it('reads a device and changes its status; pausing revokes its tokens', async () => {
    const lab = await createLab(t.database);
    const device = await lab.deviceToken();
    const admin = await signIn(t, lab.owner.memberId);
    const read = dataOf(await admin.get(`/api/v1/devices/${device.deviceId}`), 200);
    expect(read).toMatchObject({ id: device.deviceId, name: 'Test sensor', status: 'active' });

    const paused = dataOf(
      await admin.patch(`/api/v1/devices/${device.deviceId}`, { status: 'paused' }),
      200,
    );
    expect(paused).toMatchObject({ id: device.deviceId, status: 'paused' });
    expect(paused.updated_at > read.updated_at).toBe(true);
    const heartbeat = () =>
      t.request({
        method: 'POST',
        url: `/api/v1/devices/${device.deviceId}/heartbeat`,
        headers: device.headers,
      });
    expect(body(await heartbeat()).code).toBe('UNAUTHORIZED');
    const tokens = dataOf(await admin.get(`/api/v1/devices/${device.deviceId}/tokens`), 200);
    expect(tokens.every((token: { status: string }) => token.status === 'revoked')).toBe(true);

    expect(
      dataOf(await admin.patch(`/api/v1/devices/${device.deviceId}`, { status: 'active' }), 200)
        .status,
    ).toBe('active');
    // The console mints a new token with the existing operation, under the session.
    const minted = dataOf(await admin.post(`/api/v1/devices/${device.deviceId}/tokens`, {}), 201);
    expect(minted.token).toMatch(/^xpd_live_/);
    dataOf(await admin.patch(`/api/v1/devices/${device.deviceId}`, { status: 'retired' }), 200);
    const back = await admin.patch(`/api/v1/devices/${device.deviceId}`, { status: 'active' });
    expect(body(back)).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: 'status: a retired device stays retired; register it again',
    });
    expect(
      body(await admin.patch(`/api/v1/devices/${device.deviceId}`, { status: 'broken' })).code,
    ).toBe('VALIDATION_ERROR');
    const otherLab = await createLab(t.database);
    const foreign = await otherLab.deviceToken();
    expect(body(await admin.get(`/api/v1/devices/${foreign.deviceId}`))).toMatchObject({
      code: 'NOT_FOUND',
      error: 'Device not found',
    });
  });

  it('needs the console origin for these writes too', async () => {
    const lab = await createLab(t.database);
    const owner = await signIn(t, lab.owner.memberId);
    const forged = await t.request({
      method: 'POST',
      url: '/api/v1/api-keys',
      headers: { cookie: owner.cookie, origin: 'https://evil.example' },
      payload: { member_id: lab.owner.memberId },
    });
    expect(forged.statusCode).toBe(403);
    const keys = await all(owner, '/api/v1/api-keys');
    expect(keys).toHaveLength(1);
    expect(CONSOLE_ORIGIN).toBe(t.config.publicUrl);
  });
});
