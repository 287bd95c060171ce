import { expect, it } from 'vitest';
import { dataOf, GENEROUS_LIMITS } from '../support/helpers.js';
import { body, createLab } from '../support/harness.js';
import { mintLink, redeemLink, signIn } from '../support/sessions.js';
import { appSuite, describeOnDatabases } from '../support/suite.js';

/** Sign-in links that stop working before they are used, and links named before use. */
describeOnDatabases('sign-in links revoked, and named before use', (target) => {
  const { t } = appSuite(target, { env: GENEROUS_LIMITS });

  const exchange = (secret: string, headers: Record<string, string> = {}) =>
    redeemLink(t, secret, headers);
  const describe = (secret: string, headers: Record<string, string> = {}) =>
    t.request({
      method: 'GET',
      url: '/api/v1/sign-in-link',
      headers: { authorization: `Bearer ${secret}`, ...headers },
    });
  /** The 401 a link that no longer works answers, on sign-in and when named. */
  const expectRevoked = async (secret: string) => {
    for (const res of [await describe(secret), await exchange(secret)]) {
      expect(res.statusCode).toBe(401);
      expect(body(res)).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
      expect(body(res).error).toMatch(/revoked/);
    }
  };
  const unusedLinks = async (memberId: string) =>
    (
      await t.database.db
        .selectFrom('sign_in_links')
        .select('id')
        .where('member_id', '=', memberId)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .execute()
    ).length;

  it('a newer link voids the older unused ones, from the console as from the CLI', async () => {
    const lab = await createLab(t.database);
    const admin = await signIn(t, (await lab.actor('admin')).memberId);
    const tech = await lab.actor('member');
    const first = await mintLink(t, tech.memberId);
    const minted = dataOf(await admin.post(`/api/v1/members/${tech.memberId}/sign-in-links`), 201);
    const second = (minted.url as string).split('#')[1]!;
    await expectRevoked(first.secret);
    const third = await mintLink(t, tech.memberId);
    await expectRevoked(second);
    expect(await unusedLinks(tech.memberId)).toBe(1);
    expect((await exchange(third.secret)).statusCode).toBe(201);
  });

  it('sign out everywhere voids the member’s unused links; signing out here does not', async () => {
    const lab = await createLab(t.database);
    const here = await signIn(t, lab.owner.memberId);
    const phone = await signIn(t, lab.owner.memberId);
    const pending = await mintLink(t, lab.owner.memberId);
    dataOf(await here.delete('/api/v1/session'), 200);
    expect(await unusedLinks(lab.owner.memberId)).toBe(1);
    // The answer keeps its shape: the sessions it ended.
    expect(dataOf(await phone.delete('/api/v1/sessions'), 200)).toEqual({ ended_sessions: 1 });
    await expectRevoked(pending.secret);
    expect(await unusedLinks(lab.owner.memberId)).toBe(0);
  });

  it('removing a member ends their sessions and voids their links in the database', async () => {
    const lab = await createLab(t.database);
    const admin = await signIn(t, (await lab.actor('admin')).memberId);
    const leaving = await lab.actor('member');
    const session = await signIn(t, leaving.memberId);
    await mintLink(t, leaving.memberId);
    dataOf(await admin.delete(`/api/v1/members/${leaving.memberId}`), 200);
    expect(await unusedLinks(leaving.memberId)).toBe(0);
    const sessions = await t.database.db
      .selectFrom('sessions')
      .select('ended_at')
      .where('member_id', '=', leaving.memberId)
      .execute();
    expect(sessions.map((s) => s.ended_at !== null)).toEqual([true]);
    expect((await session.get('/api/v1/session')).statusCode).toBe(401);
  });

  it('an admin revokes a member’s links (DELETE /members/{id}/sign-in-links)', async () => {
    const lab = await createLab(t.database);
    const adminActor = await lab.actor('admin');
    const admin = await signIn(t, adminActor.memberId);
    const tech = await lab.actor('member');
    const techSession = await signIn(t, tech.memberId);
    const link = await mintLink(t, tech.memberId);
    const url = `/api/v1/members/${tech.memberId}/sign-in-links`;

    expect(dataOf(await admin.delete(url), 200)).toEqual({
      member_id: tech.memberId,
      revoked_links: 1,
    });
    await expectRevoked(link.secret);
    // Their sessions go on; revoking again finds nothing.
    expect((await techSession.get('/api/v1/session')).statusCode).toBe(200);
    expect(dataOf(await admin.delete(url), 200)).toEqual({
      member_id: tech.memberId,
      revoked_links: 0,
    });

    // An owner's links: an owner only. A manager: not at all. A key: never.
    const ownerLink = await mintLink(t, lab.owner.memberId);
    const ownerUrl = `/api/v1/members/${lab.owner.memberId}/sign-in-links`;
    const refused = await admin.delete(ownerUrl);
    expect(refused.statusCode).toBe(403);
    expect(body(refused)).toMatchObject({
      code: 'FORBIDDEN',
      error: 'Only an owner may revoke the sign-in links of an owner',
    });
    expect((await describe(ownerLink.secret)).statusCode).toBe(200);
    const manager = await signIn(t, (await lab.actor('manager')).memberId);
    expect(body(await manager.delete(url))).toMatchObject({ code: 'FORBIDDEN' });
    const keyed = await t.request({ method: 'DELETE', url, headers: adminActor.headers });
    expect(body(keyed)).toMatchObject({ code: 'SESSION_REQUIRED' });
    const owner = await signIn(t, lab.owner.memberId);
    // Signing the owner in used a newer link, which voided ownerLink already.
    expect(dataOf(await owner.delete(ownerUrl), 200).revoked_links).toBe(0);

    // Another workspace's member, and no member at all, are not found.
    const other = await createLab(t.database);
    for (const id of [other.owner.memberId, '0190a0b0-0000-7000-8000-000000000000', 'nope']) {
      const res = await admin.delete(`/api/v1/members/${id}/sign-in-links`);
      expect(res.statusCode).toBe(404);
      expect(body(res)).toMatchObject({ code: 'NOT_FOUND', error: 'Member not found' });
    }
    // A cross-site request changes nothing.
    const again = await mintLink(t, tech.memberId);
    const forged = await admin.request({
      method: 'DELETE',
      url,
      headers: { origin: 'https://evil.example' },
    });
    expect(forged.statusCode).toBe(403);
    expect((await describe(again.secret)).statusCode).toBe(200);
  });

  it('names whom a link signs in, without using it (GET /sign-in-link)', async () => {
    const lab = await createLab(t.database, { name: 'Greenleaf' });
    const tech = await lab.actor('member');
    const link = await mintLink(t, tech.memberId);
    const res = await describe(link.secret);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['set-cookie']).toBeUndefined();
    const holder = dataOf(res, 200);
    expect(holder).toEqual({
      member: { id: tech.memberId, name: 'member member', role: 'member' },
      workspace: { id: lab.workspaceId, name: 'Greenleaf' },
      expires_at: expect.any(String),
    });
    const minutes = (Date.parse(holder.expires_at as string) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);
    // Asked again, and by a browser signed in as someone else of another lab: the same
    // answer, and the signed-in session is untouched.
    const elsewhere = await createLab(t.database, { name: 'Other lab' });
    const signedIn = await signIn(t, elsewhere.owner.memberId);
    expect(dataOf(await describe(link.secret, { cookie: signedIn.cookie }), 200)).toEqual(holder);
    expect(dataOf(await signedIn.get('/api/v1/session'), 200).member.id).toBe(
      elsewhere.owner.memberId,
    );

    // The link still works, once; then it names no one.
    expect((await exchange(link.secret)).statusCode).toBe(201);
    const used = await describe(link.secret);
    expect(used.statusCode).toBe(401);
    expect(body(used).error).toContain('already used');
    // Only a sign-in link: a session or a key is not one.
    expect((await describe(lab.owner.key)).statusCode).toBe(401);
    const noLink = await t.request({
      method: 'GET',
      url: '/api/v1/sign-in-link',
      headers: { cookie: signedIn.cookie },
    });
    expect(body(noLink)).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
