import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { newId } from '../../src/kernel/ids.js';
import { startServe } from '../../src/cli/serve.js';
import { freePort } from '../support/local-services.js';
import { cliTargets, runInProcess } from './support.js';

describe.each(cliTargets())('vitro member link / sign-out on $name', (target) => {
  it('mints a link that signs the member in once, and ends every session of the member', async () => {
    const env = { ...target.env(), PUBLIC_URL: 'http://lab-server:3000' };
    const ws = (await runInProcess(env, 'workspace', 'create', '--name', 'Lab')).out.id as string;
    const member = (
      await runInProcess(
        env,
        'member',
        'add',
        '--workspace',
        ws,
        '--name',
        'Ana',
        '--role',
        'member',
      )
    ).out.id as string;

    const minted = await runInProcess(env, 'member', 'link', '--member', member);
    expect(minted).toMatchObject({ code: 0, stderr: '' });
    expect(minted.out).toEqual({
      member_id: member,
      url: expect.stringMatching(/^http:\/\/lab-server:3000\/sign-in#vsl_[A-Za-z0-9_-]{43}$/),
      expires_at: expect.any(String),
    });
    const minutes = (Date.parse(minted.out.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);

    // The server, on the same database, takes the link once.
    const config = loadConfig(env);
    const database = openDatabase(config.database);
    const app = await buildApp(config, { database, logger: false });
    try {
      const secret = (minted.out.url as string).split('#')[1]!;
      const signIn = () =>
        app.inject({
          method: 'POST',
          url: '/api/v1/session',
          headers: { authorization: `Bearer ${secret}`, origin: 'http://lab-server:3000' },
        });
      const first = await signIn();
      expect(first.statusCode).toBe(201);
      expect((await signIn()).statusCode).toBe(401);
      const cookie = String(first.headers['set-cookie']).split(';')[0]!;
      const session = () =>
        app.inject({ method: 'GET', url: '/api/v1/session', headers: { cookie } });
      expect((await session()).statusCode).toBe(200);

      const out = await runInProcess(env, 'member', 'sign-out', '--member', member);
      expect(out).toMatchObject({
        code: 0,
        out: { member_id: member, ended_sessions: 1, revoked_links: 0 },
      });
      expect((await session()).statusCode).toBe(401);
      expect((await runInProcess(env, 'member', 'sign-out', '--member', member)).out).toEqual({
        member_id: member,
        ended_sessions: 0,
        revoked_links: 0,
      });
    } finally {
      await app.close();
      await database.close();
    }

    await runInProcess(env, 'member', 'remove', '--member', member);
    const removed = await runInProcess(env, 'member', 'link', '--member', member);
    expect(removed.code).toBe(1);
    expect(removed.err.error).toBe('member: Ana has been removed and cannot sign in');
    const unknown = await runInProcess(env, 'member', 'link', '--member', newId());
    expect(unknown.err).toEqual({ error: 'Member not found' });
    const missing = await runInProcess(env, 'member', 'sign-out');
    expect(missing.err.error).toContain("required option '--member <id>' not specified");
  });

  it('hands out the address the server recorded in its data directory, or says it does not know it', async () => {
    const env = { ...target.env(), PORT: String(await freePort()) };
    const ws = (await runInProcess(env, 'workspace', 'create', '--name', 'Lab')).out.id as string;
    const member = (
      await runInProcess(
        env,
        'member',
        'add',
        '--workspace',
        ws,
        '--name',
        'Cy',
        '--role',
        'member',
      )
    ).out.id as string;
    // No PUBLIC_URL and no server started here yet: no address is made up.
    const unknown = await runInProcess(env, 'member', 'link', '--member', member);
    expect(unknown.code).toBe(0);
    expect(unknown.out).toMatchObject({
      member_id: member,
      url: null,
      path: expect.stringMatching(/^\/sign-in#vsl_/),
      note: expect.stringContaining('PUBLIC_URL'),
    });
    const io = { env, out: () => undefined, err: () => undefined };
    const { server, summary } = await startServe(io, {
      demo: false,
      handleSignals: false,
      logger: false,
    });
    try {
      const known = await runInProcess(env, 'member', 'link', '--member', member);
      const base = (summary as { console: string }).console.replace(/\/$/, '');
      expect(known.out.url).toMatch(new RegExp(`^${base}/sign-in#vsl_`));
      expect(known.out.url).toContain(`:${env.PORT}/`);
      expect(known.out.note).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it('voids unused links: a newer link, revoke-links, sign-out and remove', async () => {
    const env = { ...target.env(), PUBLIC_URL: 'http://lab-server:3000' };
    const ws = (await runInProcess(env, 'workspace', 'create', '--name', 'Lab')).out.id as string;
    const add = async () =>
      (
        await runInProcess(
          env,
          'member',
          'add',
          '--workspace',
          ws,
          '--name',
          'Bo',
          '--role',
          'member',
        )
      ).out.id as string;
    const member = await add();
    const link = async (id = member) =>
      ((await runInProcess(env, 'member', 'link', '--member', id)).out.url as string).split(
        '#',
      )[1]!;

    const config = loadConfig(env);
    const database = openDatabase(config.database);
    const app = await buildApp(config, { database, logger: false });
    const signIn = (secret: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/session',
        headers: { authorization: `Bearer ${secret}`, origin: 'http://lab-server:3000' },
      });
    const refusal = async (secret: string) => {
      const res = await signIn(secret);
      expect(res.statusCode).toBe(401);
      return res.json<{ error: string }>().error;
    };
    try {
      // A newer link voids the older one.
      const older = await link();
      const newer = await link();
      expect(await refusal(older)).toContain('revoked');
      // revoke-links voids what is left; a second time there is nothing.
      expect((await runInProcess(env, 'member', 'revoke-links', '--member', member)).out).toEqual({
        member_id: member,
        revoked_links: 1,
      });
      expect(await refusal(newer)).toContain('revoked');
      expect((await runInProcess(env, 'member', 'revoke-links', '--member', member)).out).toEqual({
        member_id: member,
        revoked_links: 0,
      });
      // sign-out voids links too; a link minted after it works.
      const beforeSignOut = await link();
      expect((await runInProcess(env, 'member', 'sign-out', '--member', member)).out).toEqual({
        member_id: member,
        ended_sessions: 0,
        revoked_links: 1,
      });
      expect(await refusal(beforeSignOut)).toContain('revoked');
      expect((await signIn(await link())).statusCode).toBe(201);
      // remove voids them in the database, not only by the member's status.
      const leaving = await add();
      await link(leaving);
      expect((await runInProcess(env, 'member', 'remove', '--member', leaving)).code).toBe(0);
      const rows = await database.db
        .selectFrom('sign_in_links')
        .select(['revoked_at', 'used_at'])
        .where('member_id', '=', leaving)
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.revoked_at).not.toBeNull();
      expect(rows[0]!.used_at).toBeNull();
    } finally {
      await app.close();
      await database.close();
    }
  });
});
