import { afterEach, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { inTransaction } from '../../src/db/transaction.js';
import { removeMember, setMemberRole } from '../../src/modules/identity/identity.service.js';
import { signOutMember } from '../../src/modules/sessions/index.js';
import { body, createLab, testConfig, twoHandles, type TestApp } from '../support/harness.js';
import { CONSOLE_ORIGIN, mintLink, signIn } from '../support/sessions.js';
import { describeOnDatabases } from '../support/suite.js';

/**
 * Two processes on one database: a server that has served a session (and, on
 * SQLite, cached its row), and another connection (the CLI, a second server)
 * that changes the member. The server must see the change on its next request.
 */
describeOnDatabases('sessions seen from another process', (target) => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  const twoProcesses = async () => {
    const [server, other] = await twoHandles(target);
    closers.push(
      () => server.close(),
      () => other.close(),
    );
    const config = testConfig();
    const app = await buildApp(config, { database: server, logger: false });
    closers.push(() => app.close());
    const t: TestApp = {
      app,
      config,
      database: server,
      request: (options) => app.inject(options),
      close: () => app.close(),
    };
    return { t, other, lab: await createLab(other) };
  };

  it('a role changed elsewhere applies on the next request', async () => {
    const { t, other, lab } = await twoProcesses();
    const member = await lab.actor('member');
    const session = await signIn(t, member.memberId);
    const plant = () => session.post('/api/v1/plants', { species: 'Ficus' });
    expect((await plant()).statusCode).toBe(201);
    expect((await plant()).statusCode).toBe(201);
    await inTransaction(other.db, (trx) => setMemberRole(trx, member.memberId, 'viewer'));
    expect(body(await plant())).toMatchObject({ code: 'FORBIDDEN' });
    await inTransaction(other.db, (trx) => setMemberRole(trx, member.memberId, 'member'));
    expect((await plant()).statusCode).toBe(201);
  });

  it('a member removed, or signed out by the CLI, elsewhere is refused on the next request', async () => {
    const { t, other, lab } = await twoProcesses();
    const leaving = await lab.actor('member');
    const session = await signIn(t, leaving.memberId);
    expect((await session.get('/api/v1/session')).statusCode).toBe(200);
    await inTransaction(other.db, (trx) => removeMember(trx, leaving.memberId));
    expect(body(await session.get('/api/v1/session')).code).toBe('UNAUTHORIZED');

    const owner = await signIn(t, lab.owner.memberId);
    const again = await signIn(t, lab.owner.memberId);
    expect((await owner.get('/api/v1/plants')).statusCode).toBe(200);
    const unused = await mintLink(t, lab.owner.memberId);
    const result = await inTransaction(other.db, (trx) =>
      signOutMember(trx, lab.owner.memberId, new Date().toISOString()),
    );
    expect(result).toEqual({ member_id: lab.owner.memberId, ended_sessions: 2, revoked_links: 1 });
    const late = await t.request({
      method: 'POST',
      url: '/api/v1/session',
      headers: { authorization: `Bearer ${unused.secret}`, origin: CONSOLE_ORIGIN },
    });
    expect(body(late).error).toContain('revoked');
    expect(body(await owner.get('/api/v1/plants')).code).toBe('UNAUTHORIZED');
    expect(body(await again.get('/api/v1/plants')).code).toBe('UNAUTHORIZED');
    // The owner's key is untouched: sign-out ends sessions only.
    const keyed = await t.request({
      method: 'GET',
      url: '/api/v1/plants',
      headers: lab.owner.headers,
    });
    expect(keyed.statusCode).toBe(200);
  });
});

describeOnDatabases('budgets of a session', (target) => {
  it('shares the workspace budget with the keys of its workspace', async () => {
    const database = await target.open();
    const config = testConfig({ VITRO_RATE_LIMIT_WORKSPACE_PER_MIN: '4' });
    const app = await buildApp(config, {
      database,
      logger: false,
      rateLimitPrefix: `s${Date.now()}`,
    });
    const t: TestApp = {
      app,
      config,
      database,
      request: (options) => app.inject(options),
      close: () => app.close(),
    };
    try {
      const lab = await createLab(database);
      const session = await signIn(t, lab.owner.memberId);
      for (let i = 0; i < 2; i++)
        expect((await session.get('/api/v1/plants')).statusCode).toBe(200);
      const key = () =>
        t.request({ method: 'GET', url: '/api/v1/plants', headers: lab.owner.headers });
      expect((await key()).statusCode).toBe(200);
      const refused = await session.get('/api/v1/plants');
      expect(refused.statusCode).toBe(429);
      expect(body(refused).error).toContain('workspace');
      expect((await key()).statusCode).toBe(429);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
