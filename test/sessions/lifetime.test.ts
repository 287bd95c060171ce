import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { purgeFinishedSessions } from '../../src/modules/sessions/index.js';
import { dataOf, GENEROUS_LIMITS } from '../support/helpers.js';
import { body, createLab, type TestApp } from '../support/harness.js';
import { signIn } from '../support/sessions.js';
import { appSuite, describeOnDatabases } from '../support/suite.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Moves a session's sign-in (and, by default, its last use) into the past. */
function backdate(t: TestApp, id: string, createdAgoMs: number, lastUsedAgoMs = 0) {
  return t.database.db
    .updateTable('sessions')
    .set({
      created_at: new Date(Date.now() - createdAgoMs).toISOString(),
      last_used_at: new Date(Date.now() - lastUsedAgoMs).toISOString(),
    })
    .where('id', '=', id)
    .execute();
}

describeOnDatabases('a session’s absolute lifetime, by default 30 days', (target) => {
  const { t } = appSuite(target, { env: GENEROUS_LIMITS });

  it('ends 30 days after sign-in however much it is used', async () => {
    const lab = await createLab(t.database);
    const session = await signIn(t, lab.owner.memberId);
    const id = session.session.id as string;
    await backdate(t, id, 29.9 * DAY);
    const alive = dataOf(await session.get('/api/v1/session'), 200);
    // Ends at sign-in + 30 days, not 30 days after this use.
    expect(Date.parse(alive.expires_at) - Date.parse(alive.created_at)).toBe(30 * DAY);
    await backdate(t, id, 30.01 * DAY);
    const ended = await session.get('/api/v1/session');
    expect(ended.statusCode).toBe(401);
    expect(body(ended).error).toBe('Your console session has ended; sign in again');
  });
});

describeOnDatabases('a session’s lifetime set by VITRO_SESSION_LIFETIME', (target) => {
  const { t } = appSuite(target, { env: { ...GENEROUS_LIMITS, VITRO_SESSION_LIFETIME: '12h' } });

  it('ends the session that long after sign-in; its cookie lasts no longer', async () => {
    const lab = await createLab(t.database);
    const session = await signIn(t, lab.owner.memberId);
    const started = session.session as { id: string; created_at: string; expires_at: string };
    expect(Date.parse(started.expires_at) - Date.parse(started.created_at)).toBe(12 * HOUR);

    await backdate(t, started.id, 11 * HOUR, 10 * HOUR);
    const res = await session.get('/api/v1/session');
    expect(res.statusCode).toBe(200);
    const maxAge = Number(/Max-Age=(\d+)/.exec(String(res.headers['set-cookie']))![1]);
    expect(maxAge).toBeGreaterThan(HOUR / 1000 - 60);
    expect(maxAge).toBeLessThanOrEqual(HOUR / 1000);

    await backdate(t, started.id, 12 * HOUR + 60_000);
    expect((await session.get('/api/v1/plants')).statusCode).toBe(401);

    // The purge drops sessions past their lifetime.
    const count = async () =>
      (
        await t.database.db
          .selectFrom('sessions')
          .select('id')
          .where('id', '=', started.id)
          .execute()
      ).length;
    await purgeFinishedSessions(t.database.db, 30 * DAY);
    expect(await count()).toBe(1);
    await purgeFinishedSessions(t.database.db, t.config.sessionLifetimeMs);
    expect(await count()).toBe(0);
  });
});

describe('VITRO_SESSION_LIFETIME', () => {
  const env = (value?: string) => ({
    VITRO_DATA_DIR: mkdtempSync(join(tmpdir(), 'vitro-lifetime-')),
    ...(value === undefined ? {} : { VITRO_SESSION_LIFETIME: value }),
  });

  it('is 30 days unless set, and takes a duration', () => {
    expect(loadConfig(env()).sessionLifetimeMs).toBe(30 * DAY);
    expect(loadConfig(env('8h')).sessionLifetimeMs).toBe(8 * HOUR);
    expect(loadConfig(env('90d')).sessionLifetimeMs).toBe(90 * DAY);
  });

  it.each(['30', 'forever', '0d', '400d'])('refuses %s naming the variable', (value) => {
    expect(() => loadConfig(env(value))).toThrow(ConfigError);
    expect(() => loadConfig(env(value))).toThrow(/^VITRO_SESSION_LIFETIME: must be a duration/);
  });
});
