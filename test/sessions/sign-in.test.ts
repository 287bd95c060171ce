import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { SCOPES } from '../../src/kernel/access.js';
import { removeMember, setMemberRole } from '../../src/modules/identity/identity.service.js';
import { purgeFinishedSessions } from '../../src/modules/sessions/index.js';
import { dataOf, GENEROUS_LIMITS } from '../support/helpers.js';
import { body, createLab, startTestApp } from '../support/harness.js';
import {
  CONSOLE_ORIGIN,
  cookieOf,
  mintLink,
  redeemLink,
  sessionClient,
  signIn,
} from '../support/sessions.js';
import { appSuite, describeOnDatabases } from '../support/suite.js';

/** The default session lifetime (VITRO_SESSION_LIFETIME unset): 30 days. */
const LIFETIME_MS = 30 * 86_400_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describeOnDatabases('console sign-in', (target) => {
  const { t } = appSuite(target, { env: GENEROUS_LIMITS });

  const exchange = (secret: string, headers: Record<string, string> = {}) =>
    redeemLink(t, secret, headers);

  it('mints a link with its secret in the fragment, 15 minutes, kept only as a hash', async () => {
    const lab = await createLab(t.database);
    const before = Date.now();
    const { url, secret } = await mintLink(t, lab.owner.memberId);
    expect(url).toBe(`${t.config.publicUrl}/sign-in#${secret}`);
    expect(secret).toMatch(/^vsl_[A-Za-z0-9_-]{43}$/);
    const rows = await t.database.db
      .selectFrom('sign_in_links')
      .selectAll()
      .where('member_id', '=', lab.owner.memberId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(sha256(secret));
    expect(JSON.stringify(rows)).not.toContain(secret);
    const lifetime = Date.parse(rows[0]!.expires_at) - Date.parse(rows[0]!.created_at);
    expect(lifetime).toBe(15 * 60 * 1000);
    expect(Date.parse(rows[0]!.created_at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('opens a session once: an HttpOnly, SameSite=Strict cookie stored as a hash', async () => {
    const lab = await createLab(t.database);
    const { secret } = await mintLink(t, lab.owner.memberId);
    const res = await exchange(secret);
    expect(res.statusCode).toBe(201);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^vitro_session=vss_[A-Za-z0-9_-]{43}; /);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).toContain(`Max-Age=${30 * 24 * 3600}`);
    expect(setCookie).not.toContain('Secure');
    const session = body(res).data;
    expect(session).toMatchObject({
      member: { id: lab.owner.memberId, role: 'owner' },
      workspace: { id: lab.workspaceId, name: 'Test lab', plan: 'teams' },
    });
    // An owner's session holds every scope there is.
    expect([...session.scopes].sort()).toEqual([...SCOPES].sort());
    expect(Date.parse(session.expires_at) - Date.parse(session.last_used_at)).toBe(
      30 * 24 * 3600 * 1000,
    );
    const token = cookieOf(res)!.split('=')[1]!;
    const stored = await t.database.db
      .selectFrom('sessions')
      .select(['token_hash', 'member_id'])
      .where('id', '=', session.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ token_hash: sha256(token), member_id: lab.owner.memberId });

    const again = await exchange(secret);
    expect(again.statusCode).toBe(401);
    expect(body(again)).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(body(again).error).toContain('already used');
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('lets only one of two racing requests use a link', async () => {
    const lab = await createLab(t.database);
    const { secret } = await mintLink(t, lab.owner.memberId);
    const answers = await Promise.all([exchange(secret), exchange(secret), exchange(secret)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 401, 401]);
    const sessions = await t.database.db
      .selectFrom('sessions')
      .select('id')
      .where('member_id', '=', lab.owner.memberId)
      .execute();
    expect(sessions).toHaveLength(1);
  });

  it('refuses an expired link, an unknown one, and a removed member’s', async () => {
    const lab = await createLab(t.database);
    const expired = await mintLink(t, lab.owner.memberId);
    await t.database.db
      .updateTable('sign_in_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', sha256(expired.secret))
      .execute();
    const late = await exchange(expired.secret);
    expect(late.statusCode).toBe(401);
    expect(body(late).error).toMatch(/expired at .* \(links work for 15 minutes\)/);

    const unknown = await exchange(`vsl_${'A'.repeat(43)}`);
    expect(body(unknown)).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(body(unknown).error).toContain('not a sign-in link of this server');
    expect(body(await exchange('xpk_live_nope')).code).toBe('UNAUTHORIZED');
    const none = await t.request({ method: 'POST', url: '/api/v1/session' });
    expect(body(none).code).toBe('UNAUTHORIZED');

    const leaving = await lab.actor('member');
    const link = await mintLink(t, leaving.memberId);
    await inTransaction(t.database.db, (trx) => removeMember(trx, leaving.memberId));
    const gone = await exchange(link.secret);
    expect(gone.statusCode).toBe(401);
    expect(body(gone).error).toContain('no longer a member');
  });

  it('never writes the link or the cookie to the log', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logged = await startTestApp(target, {
      env: { ...GENEROUS_LIMITS, LOG_LEVEL: 'info' },
      logger: true,
      logStream,
    });
    try {
      const lab = await createLab(logged.database);
      const { secret } = await mintLink(logged, lab.owner.memberId);
      const res = await logged.request({
        method: 'POST',
        url: '/api/v1/session',
        headers: { authorization: `Bearer ${secret}`, origin: CONSOLE_ORIGIN },
      });
      const cookie = cookieOf(res)!;
      await sessionClient(logged, cookie).get('/api/v1/plants');
      expect(lines.length).toBeGreaterThan(2);
      const log = lines.join('');
      expect(log).not.toContain(secret);
      expect(log).not.toContain(cookie.split('=')[1]!);
    } finally {
      await logged.close();
    }
  });

  it('acts as its member with every scope the role allows, role refusals naming the role', async () => {
    const lab = await createLab(t.database);
    const viewer = await signIn(t, (await lab.actor('viewer')).memberId);
    expect(viewer.session.scopes).not.toContain('write:plants');
    dataOf(await viewer.get('/api/v1/plants'), 200);
    const refused = await viewer.post('/api/v1/plants', { species: 'Ficus' });
    expect(refused.statusCode).toBe(403);
    expect(body(refused)).toMatchObject({ code: 'FORBIDDEN' });
    expect(body(refused).error).toBe(
      'This operation needs the member role or above; you are a viewer',
    );
    const member = await signIn(t, (await lab.actor('member')).memberId);
    const plant = dataOf(await member.post('/api/v1/plants', { species: 'Ficus' }), 201);
    const stored = await t.database.db
      .selectFrom('plants')
      .select('created_by')
      .where('id', '=', plant.id)
      .executeTakeFirstOrThrow();
    expect(stored.created_by).toBe(member.session.member.id);
    const manager = await signIn(t, (await lab.actor('manager')).memberId);
    expect((await member.get('/api/v1/pricing/culture-lines')).statusCode).toBe(403);
    dataOf(await manager.get('/api/v1/pricing/culture-lines'), 200);
    // GET /me describes the session as its key.
    const me = dataOf(await member.get('/api/v1/me'), 200);
    expect(me).toMatchObject({
      key: { id: member.session.id, prefix: 'session', name: 'Console session' },
      role: 'member',
      workspace: { id: lab.workspaceId },
      user: { id: member.session.member.id },
    });
  });

  it('applies the plan as for a key', async () => {
    const hobby = await createLab(t.database, { plan: 'hobby' });
    const session = await signIn(t, hobby.owner.memberId);
    expect(body(await session.get('/api/v1/plants')).code).toBe('PAID_PLAN_REQUIRED');
    dataOf(await session.get('/api/v1/devices'), 200);
    expect(session.session.scopes).toContain('read:devices');
    expect(session.session.scopes).not.toContain('read:plants');
  });

  it('replays a write sent again with its Idempotency-Key', async () => {
    const lab = await createLab(t.database);
    const session = await signIn(t, lab.owner.memberId);
    const send = () =>
      session.request({
        method: 'POST',
        url: '/api/v1/plants',
        payload: { species: 'Alocasia' },
        headers: { 'idempotency-key': 'console-form-0001' },
      });
    const first = await send();
    const second = await send();
    expect(first.statusCode).toBe(201);
    expect(second.headers['idempotent-replay']).toBe('true');
    expect(body(second).data.id).toBe(body(first).data.id);
  });

  it("takes writes only from the console's own origin: a cross-site one is 403 and changes nothing", async () => {
    const lab = await createLab(t.database);
    const session = await signIn(t, lab.owner.memberId);
    const count = async () =>
      (
        await t.database.db
          .selectFrom('plants')
          .select('id')
          .where('workspace_id', '=', lab.workspaceId)
          .execute()
      ).length;
    const write = (headers: Record<string, string>) =>
      t.request({
        method: 'POST',
        url: '/api/v1/plants',
        headers: { cookie: session.cookie, ...headers },
        payload: { species: 'Ficus' },
      });
    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'http://127.0.0.1:3001' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:8080' },
      { 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' },
      {},
    ];
    for (const headers of crossSite) {
      const res = await write(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(body(res).code).toBe('FORBIDDEN');
      expect(body(res).error).toContain('nothing was changed');
    }
    expect(await count()).toBe(0);
    // A cross-site read is not honoured either: as if no cookie came.
    const read = await t.request({
      method: 'GET',
      url: '/api/v1/plants',
      headers: { cookie: session.cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(body(read).code).toBe('UNAUTHORIZED');

    dataOf(await write({ 'sec-fetch-site': 'same-origin' }), 201);
    dataOf(await write({ origin: CONSOLE_ORIGIN }), 201);
    // The address the console was opened at is its own origin, PUBLIC_URL or not.
    dataOf(await write({ origin: 'http://lab-server:3000', host: 'lab-server:3000' }), 201);
    expect(await count()).toBe(3);
  });

  it('refuses a key and a session together; another origin’s key request ignores the cookie', async () => {
    const lab = await createLab(t.database);
    const session = await signIn(t, lab.owner.memberId);
    const mixed = await t.request({
      method: 'GET',
      url: '/api/v1/plants',
      headers: { cookie: session.cookie, ...lab.owner.headers },
    });
    expect(mixed.statusCode).toBe(401);
    expect(body(mixed).error).toBe(
      'Send either an API key (Authorization) or the console session cookie, not both',
    );
    const tool = await t.request({
      method: 'POST',
      url: '/api/v1/plants',
      headers: { cookie: session.cookie, origin: 'https://tools.example', ...lab.owner.headers },
      payload: { species: 'Ficus' },
    });
    expect(tool.statusCode).toBe(201);
  });

  it('signs out: this session, or every session of the member', async () => {
    const lab = await createLab(t.database);
    const here = await signIn(t, lab.owner.memberId);
    const phone = await signIn(t, lab.owner.memberId);
    const tablet = await signIn(t, lab.owner.memberId);
    const colleague = await signIn(t, (await lab.actor('member')).memberId);

    const out = await here.delete('/api/v1/session');
    expect(dataOf(out, 200)).toEqual({ ended_sessions: 1 });
    expect(String(out.headers['set-cookie'])).toMatch(/^vitro_session=; .*Max-Age=0/);
    expect(body(await here.get('/api/v1/plants')).code).toBe('UNAUTHORIZED');
    dataOf(await phone.get('/api/v1/plants'), 200);

    expect(dataOf(await phone.delete('/api/v1/sessions'), 200)).toEqual({ ended_sessions: 2 });
    expect(body(await phone.get('/api/v1/session')).code).toBe('UNAUTHORIZED');
    expect(body(await tablet.get('/api/v1/session')).code).toBe('UNAUTHORIZED');
    dataOf(await colleague.get('/api/v1/session'), 200);
    // A cross-site sign-out is refused like any cross-site write.
    const forged = await t.request({
      method: 'DELETE',
      url: '/api/v1/sessions',
      headers: { cookie: colleague.cookie, origin: 'https://evil.example' },
    });
    expect(forged.statusCode).toBe(403);
    dataOf(await colleague.get('/api/v1/session'), 200);
  });

  it('ends a session when its member is removed, or its role changes on the next request', async () => {
    const lab = await createLab(t.database);
    const member = await lab.actor('member');
    const session = await signIn(t, member.memberId);
    dataOf(await session.post('/api/v1/plants', { species: 'Ficus' }), 201);
    await inTransaction(t.database.db, (trx) => setMemberRole(trx, member.memberId, 'viewer'));
    expect((await session.post('/api/v1/plants', { species: 'Ficus' })).statusCode).toBe(403);
    expect(dataOf(await session.get('/api/v1/session'), 200).member.role).toBe('viewer');
    await inTransaction(t.database.db, (trx) => removeMember(trx, member.memberId));
    const gone = await session.get('/api/v1/plants');
    expect(gone.statusCode).toBe(401);
    expect(body(gone).error).toBe('Your console session has ended; sign in again');
  });

  it('ends after 30 days unused, and counts use to the minute', async () => {
    const lab = await createLab(t.database);
    const session = await signIn(t, lab.owner.memberId);
    const id = session.session.id as string;
    const setLastUse = (daysAgo: number) =>
      t.database.db
        .updateTable('sessions')
        .set({ last_used_at: new Date(Date.now() - daysAgo * 86_400_000).toISOString() })
        .where('id', '=', id)
        .execute();
    await setLastUse(29.9);
    dataOf(await session.get('/api/v1/session'), 200);
    // The use was recorded (a minute or more had passed since the last).
    await expect
      .poll(async () => {
        const row = await t.database.db
          .selectFrom('sessions')
          .select('last_used_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        return Date.now() - Date.parse(row.last_used_at) < 60_000;
      })
      .toBe(true);
    await setLastUse(30.01);
    expect(body(await session.get('/api/v1/session')).code).toBe('UNAUTHORIZED');
  });

  it('replaces the session a browser still holds when it signs in again', async () => {
    const lab = await createLab(t.database);
    const first = await signIn(t, lab.owner.memberId);
    const other = await lab.actor('member');
    const { secret } = await mintLink(t, other.memberId);
    const res = await exchange(secret, { cookie: first.cookie });
    expect(res.statusCode).toBe(201);
    expect(body(await first.get('/api/v1/session')).code).toBe('UNAUTHORIZED');
    const second = sessionClient(t, cookieOf(res)!);
    expect(dataOf(await second.get('/api/v1/session'), 200).member.id).toBe(other.memberId);
  });

  it('purges used and expired links and ended sessions a day later', async () => {
    const lab = await createLab(t.database);
    const session = await signIn(t, lab.owner.memberId);
    await mintLink(t, lab.owner.memberId);
    await session.delete('/api/v1/session');
    const count = async (table: 'sessions' | 'sign_in_links') =>
      (
        await t.database.db
          .selectFrom(table)
          .select('id')
          .where('workspace_id', '=', lab.workspaceId)
          .execute()
      ).length;
    await purgeFinishedSessions(t.database.db, LIFETIME_MS, new Date());
    expect(await count('sessions')).toBe(1);
    expect(await count('sign_in_links')).toBe(2);
    await purgeFinishedSessions(t.database.db, LIFETIME_MS, new Date(Date.now() + 2 * 86_400_000));
    expect(await count('sessions')).toBe(0);
    expect(await count('sign_in_links')).toBe(0);
  });
});

describeOnDatabases('the session cookie over https', (target) => {
  const { t } = appSuite(target, { env: { PUBLIC_URL: 'https://lab.example.org' } });

  it('is Secure with the __Host- prefix when PUBLIC_URL is https', async () => {
    const lab = await createLab(t.database);
    const { secret, url } = await mintLink(t, lab.owner.memberId);
    expect(url.startsWith('https://lab.example.org/sign-in#vsl_')).toBe(true);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/session',
      headers: { authorization: `Bearer ${secret}`, origin: 'https://lab.example.org' },
    });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^__Host-vitro_session=vss_/);
    expect(setCookie).toContain('Secure');
    expect(setCookie).toContain('HttpOnly');
    const session = sessionClient(t, cookieOf(res)!);
    const written = await session.request({
      method: 'POST',
      url: '/api/v1/plants',
      payload: { species: 'Ficus' },
      headers: { origin: 'https://lab.example.org' },
    });
    expect(written.statusCode).toBe(201);
  });
});
