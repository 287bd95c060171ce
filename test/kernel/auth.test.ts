import { inTransaction } from '../../src/db/transaction.js';
import { describe, expect, it, vi } from 'vitest';
import { SCOPES } from '../../src/kernel/access.js';
import { generateCredential } from '../../src/kernel/credentials.js';
import { changeDeviceStatus } from '../../src/modules/devices/index.js';
import {
  removeMember,
  revokeApiKey,
  setMemberRole,
  setWorkspaceFeatures,
  setWorkspacePlan,
} from '../../src/modules/identity/index.js';
import { body, createLab } from '../support/harness.js';
import { kernelTestRoutes } from './routes.js';
import { appSuite, describeOnDatabases } from '../support/suite.js';

describeOnDatabases('authentication and access', (target) => {
  const { t } = appSuite(target, { extraRoutes: kernelTestRoutes });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url, headers });

  it('refuses a missing, malformed, mistyped, unknown or non-Bearer key with 401', async () => {
    const lab = await createLab(t.database);
    const mistyped = lab.owner.key.slice(0, -1) + (lab.owner.key.endsWith('A') ? 'B' : 'A');
    const unknown = generateCredential('key', 'production').secret;
    for (const authorization of [
      undefined,
      '',
      'Bearer',
      'Bearer not-a-key',
      `Basic ${lab.owner.key}`,
      `Bearer ${mistyped}`,
      `Bearer ${unknown}`,
      `Bearer ${lab.owner.key}x`,
    ]) {
      const res = await get('/api/v1/me', authorization === undefined ? {} : { authorization });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(body(res)).toEqual({
        ok: false,
        data: null,
        error: expect.any(String),
        code: 'UNAUTHORIZED',
      });
    }
  });

  it('refuses a revoked key and a key whose owner left the workspace', async () => {
    const lab = await createLab(t.database);
    const leaving = await lab.actor('member');
    expect((await get('/api/v1/me', lab.owner.headers)).statusCode).toBe(200);
    expect((await get('/api/v1/me', leaving.headers)).statusCode).toBe(200);
    await inTransaction(t.database.db, (trx) => revokeApiKey(trx, lab.owner.keyId));
    await inTransaction(t.database.db, (trx) => removeMember(trx, leaving.memberId));
    expect(body(await get('/api/v1/me', lab.owner.headers)).code).toBe('UNAUTHORIZED');
    expect(body(await get('/api/v1/me', leaving.headers)).code).toBe('UNAUTHORIZED');
  });

  it('answers GET /me with the key, scopes narrowed by role and plan, camelCase', async () => {
    const lab = await createLab(t.database);
    const viewer = await lab.actor('viewer', { environment: 'development' });
    const res = await get('/api/v1/me', viewer.headers);
    expect(res.statusCode).toBe(200);
    const me = body(res).data;
    expect(me).toEqual({
      key: {
        id: viewer.keyId,
        name: expect.any(String),
        prefix: expect.stringMatching(/^xpk_dev_/),
        environment: 'development',
        status: 'active',
        lastUsedAt: null,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
      scopes: [...SCOPES],
      // Reads, and marking one's own notifications read, which any role may.
      effectiveScopes: SCOPES.filter(
        (s) =>
          (s.startsWith('read:') || s === 'write:notifications') &&
          s !== 'read:pricing' &&
          s !== 'read:commerce' &&
          s !== 'read:webhooks',
      ),
      role: 'viewer',
      apiAccess: 'full',
      workspace: { id: lab.workspaceId },
      user: { id: viewer.memberId },
    });
    expect(viewer.key.startsWith('xpk_dev_')).toBe(true);
    // last_used_at is written after the response (at most once a minute), so wait for it.
    await vi.waitFor(async () => {
      const again = body(await get('/api/v1/me', viewer.headers)).data;
      expect(again.key.lastUsedAt).toEqual(expect.any(String));
    });
  });

  it('narrows /me to device scopes on devices-only plans and to nothing on free', async () => {
    const lab = await createLab(t.database, { plan: 'pro_lab' });
    const me = body(await get('/api/v1/me', lab.owner.headers)).data;
    expect(me.apiAccess).toBe('devices');
    expect(me.effectiveScopes).toEqual([
      'read:devices',
      'write:devices',
      'write:sensor_readings',
      'write:device_events',
    ]);
    await inTransaction(t.database.db, (trx) => setWorkspacePlan(trx, lab.workspaceId, 'free'));
    const free = await get('/api/v1/me', lab.owner.headers);
    expect(free.statusCode).toBe(200);
    expect(body(free).data.effectiveScopes).toEqual([]);
  });

  it('gives 402 PAID_PLAN_REQUIRED outside the plan, but lets device operations through on device plans', async () => {
    const lab = await createLab(t.database, { plan: 'hobby' });
    const plants = await get('/api/v1/plants', lab.owner.headers);
    expect(plants.statusCode).toBe(402);
    expect(body(plants).code).toBe('PAID_PLAN_REQUIRED');
    const ping = await t.request({
      method: 'POST',
      url: '/api/v1/test/device-ping',
      headers: lab.owner.headers,
    });
    expect(ping.statusCode).toBe(201);
    await inTransaction(t.database.db, (trx) => setWorkspacePlan(trx, lab.workspaceId, 'free'));
    const freePing = await t.request({
      method: 'POST',
      url: '/api/v1/test/device-ping',
      headers: lab.owner.headers,
    });
    expect(freePing.statusCode).toBe(402);
    expect(body(freePing).code).toBe('PAID_PLAN_REQUIRED');
    expect((await get('/api/v1/workspaces', lab.owner.headers)).statusCode).toBe(402);
  });

  it('accepts device tokens only on device operations', async () => {
    const lab = await createLab(t.database);
    const device = await lab.deviceToken();
    const ping = await t.request({
      method: 'POST',
      url: '/api/v1/test/device-ping',
      headers: device.headers,
    });
    expect(ping.statusCode).toBe(201);
    expect(body(ping).data.kind).toBe('device');
    for (const url of ['/api/v1/me', '/api/v1/plants', '/api/v1/workspaces']) {
      const res = await get(url, device.headers);
      expect(res.statusCode, url).toBe(403);
      expect(body(res).code).toBe('DEVICE_TOKEN_NOT_ACCEPTED');
    }
    await inTransaction(t.database.db, (trx) => changeDeviceStatus(trx, device.deviceId, 'paused'));
    const paused = await t.request({
      method: 'POST',
      url: '/api/v1/test/device-ping',
      headers: device.headers,
    });
    expect(paused.statusCode).toBe(401);
  });

  it('names the missing scope in 403 FORBIDDEN', async () => {
    const lab = await createLab(t.database);
    const narrow = await lab.actor('owner', { scopes: ['read:plants'] });
    expect((await get('/api/v1/plants', narrow.headers)).statusCode).toBe(200);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/plants',
      headers: narrow.headers,
      payload: { species: 'Ficus' },
    });
    expect(res.statusCode).toBe(403);
    expect(body(res)).toMatchObject({
      code: 'FORBIDDEN',
      error: expect.stringContaining('write:plants'),
    });
  });

  it("names the role needed when the owner's role cannot use the operation", async () => {
    const lab = await createLab(t.database);
    const viewer = await lab.actor('viewer');
    const write = await t.request({
      method: 'POST',
      url: '/api/v1/plants',
      headers: viewer.headers,
      payload: { species: 'Ficus' },
    });
    expect(write.statusCode).toBe(403);
    expect(body(write)).toMatchObject({
      code: 'FORBIDDEN',
      error: expect.stringContaining('member role'),
    });
    const member = await lab.actor('member');
    const priced = await get('/api/v1/test/priced', member.headers);
    expect(priced.statusCode).toBe(403);
    expect(body(priced).error).toContain('manager role');
    await inTransaction(t.database.db, (trx) => setMemberRole(trx, member.memberId, 'manager'));
    expect((await get('/api/v1/test/priced', member.headers)).statusCode).toBe(200);
  });

  it('gives 402 FEATURE_NOT_INCLUDED when a gated feature is switched off', async () => {
    const lab = await createLab(t.database);
    expect((await get('/api/v1/test/priced', lab.owner.headers)).statusCode).toBe(200);
    await inTransaction(t.database.db, (trx) =>
      setWorkspaceFeatures(trx, lab.workspaceId, ['commerce']),
    );
    const res = await get('/api/v1/test/priced', lab.owner.headers);
    expect(res.statusCode).toBe(402);
    expect(body(res).code).toBe('FEATURE_NOT_INCLUDED');
  });

  describe('order of checks', () => {
    it('401 comes before everything', async () => {
      const lab = await createLab(t.database, { plan: 'free' });
      await inTransaction(t.database.db, (trx) => revokeApiKey(trx, lab.owner.keyId));
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/plants',
        headers: lab.owner.headers,
        payload: 'x',
      });
      expect(res.statusCode).toBe(401);
    });

    it('403 DEVICE_TOKEN_NOT_ACCEPTED comes before 402', async () => {
      const lab = await createLab(t.database, { plan: 'hobby' });
      const device = await lab.deviceToken();
      const res = await get('/api/v1/plants', device.headers);
      expect(body(res).code).toBe('DEVICE_TOKEN_NOT_ACCEPTED');
    });

    it('402 comes before the scope and role checks', async () => {
      const lab = await createLab(t.database, { plan: 'hobby' });
      const weak = await lab.actor('guest', { scopes: [] });
      const res = await get('/api/v1/plants', weak.headers);
      expect(body(res).code).toBe('PAID_PLAN_REQUIRED');
    });

    it('the scope refusal comes before the role refusal', async () => {
      const lab = await createLab(t.database);
      const guest = await lab.actor('guest', { scopes: ['read:plants'] });
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/plants',
        headers: guest.headers,
        payload: { species: 'Ficus' },
      });
      expect(body(res).error).toContain('write:plants');
    });

    it('access refusals come before body validation (400/422)', async () => {
      const lab = await createLab(t.database);
      const viewer = await lab.actor('viewer');
      const badJson = await t.request({
        method: 'POST',
        url: '/api/v1/plants',
        headers: { ...viewer.headers, 'content-type': 'application/json' },
        payload: '{',
      });
      expect(badJson.statusCode).toBe(403);
      const invalid = await t.request({
        method: 'POST',
        url: '/api/v1/plants',
        headers: viewer.headers,
        payload: { species: '' },
      });
      expect(invalid.statusCode).toBe(403);
    });
  });
});
