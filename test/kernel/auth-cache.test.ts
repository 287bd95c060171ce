import { inTransaction } from '../../src/db/transaction.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { changeDeviceStatus } from '../../src/modules/devices/index.js';
import {
  removeMember,
  revokeApiKey,
  setMemberRole,
  setWorkspacePlan,
} from '../../src/modules/identity/index.js';
import { body, createLab, testConfig } from '../support/harness.js';

/**
 * On SQLite, authentication reuses a credential row while nothing was written.
 * These tests change credentials through a second connection to the same file,
 * as the CLI does from its own process, and expect the very next request to see it.
 */
describe('credential rows reused on SQLite', () => {
  const open: Database[] = [];
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    for (const database of open.splice(0)) await database.close();
  });

  const twoConnections = async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'vitro-auth-')), 'vitro.db');
    const server = openDatabase({ dialect: 'sqlite', path, url: `sqlite:${path}` });
    const cli = openDatabase({ dialect: 'sqlite', path, url: `sqlite:${path}` });
    open.push(server, cli);
    await migrateToLatest(server.db);
    const app = await buildApp(testConfig(), { database: server, logger: false });
    closers.push(() => app.close());
    const lab = await createLab(cli);
    const me = async (headers: Record<string, string>) =>
      app.inject({ method: 'GET', url: '/api/v1/me', headers });
    const plants = async (headers: Record<string, string>) =>
      app.inject({ method: 'POST', url: '/api/v1/plants', headers, payload: { species: 'Ficus' } });
    return { server, cli, lab, me, plants };
  };

  it('sees a key revoked by another connection on the next request', async () => {
    const { cli, lab, me } = await twoConnections();
    expect((await me(lab.owner.headers)).statusCode).toBe(200);
    expect((await me(lab.owner.headers)).statusCode).toBe(200);
    await inTransaction(cli.db, (trx) => revokeApiKey(trx, lab.owner.keyId));
    expect(body(await me(lab.owner.headers)).code).toBe('UNAUTHORIZED');
  });

  it('sees a member removed, a role lowered and a plan changed elsewhere on the next request', async () => {
    const { cli, lab, me, plants } = await twoConnections();
    const member = await lab.actor('member');
    const leaving = await lab.actor('manager');
    expect((await plants(member.headers)).statusCode).toBe(201);
    expect((await me(leaving.headers)).statusCode).toBe(200);

    await inTransaction(cli.db, (trx) => setMemberRole(trx, member.memberId, 'viewer'));
    const demoted = await plants(member.headers);
    expect(demoted.statusCode).toBe(403);
    expect(body(demoted).error).toContain('member role');

    await inTransaction(cli.db, (trx) => removeMember(trx, leaving.memberId));
    expect((await me(leaving.headers)).statusCode).toBe(401);

    await inTransaction(cli.db, (trx) => setWorkspacePlan(trx, lab.workspaceId, 'hobby'));
    expect(body(await plants(lab.owner.headers)).code).toBe('PAID_PLAN_REQUIRED');
  });

  it('sees a device paused elsewhere on the next request', async () => {
    const { cli, lab, server } = await twoConnections();
    const device = await lab.deviceToken();
    const app = await buildApp(testConfig(), {
      database: server,
      logger: false,
      extraRoutes: (await import('./routes.js')).kernelTestRoutes,
    });
    closers.push(() => app.close());
    const ping = () =>
      app.inject({ method: 'POST', url: '/api/v1/test/device-ping', headers: device.headers });
    expect((await ping()).statusCode).toBe(201);
    await inTransaction(cli.db, (trx) => changeDeviceStatus(trx, device.deviceId, 'retired'));
    expect((await ping()).statusCode).toBe(401);
  });

  it('advances the change generation on writes and commits elsewhere, not on reads', async () => {
    const { server, cli } = await twoConnections();
    const start = server.changeGeneration()!;
    await server.db.selectFrom('workspaces').select('id').execute();
    expect(server.changeGeneration()).toBe(start);
    await server.db.updateTable('workspaces').set({ name: 'renamed' }).execute();
    const afterOwnWrite = server.changeGeneration()!;
    expect(afterOwnWrite).toBeGreaterThan(start);
    expect(server.changeGeneration()).toBe(afterOwnWrite);
    await cli.db.updateTable('workspaces').set({ name: 'renamed again' }).execute();
    expect(server.changeGeneration()).toBeGreaterThan(afterOwnWrite);
  });

  it('is not used on PostgreSQL', () => {
    const database = openDatabase({ dialect: 'postgres', url: 'postgres://127.0.0.1:1/none' });
    open.push(database);
    expect(database.changeGeneration()).toBeNull();
  });
});
