import { writeFileSync } from 'node:fs';
import { inTransaction } from '../../src/db/transaction.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKeyPath } from '../../src/cli/demo-key.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { newId } from '../../src/kernel/ids.js';
import { mintDeviceToken, registerDevice } from '../../src/modules/devices/index.js';
import { cliTargets, runInProcess, tempDir } from './support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(cliTargets())('vitro commands on $name', (target) => {
  let env: Record<string, string>;
  let database: Database;
  const cli = (...argv: string[]) => runInProcess(env, ...argv);
  beforeAll(async () => {
    env = target.env();
    const migrated = await cli('migrate');
    expect(migrated.code).toBe(0);
    expect(Array.isArray(migrated.out.applied)).toBe(true);
    database = openDatabase(loadConfig(env).database);
  });
  afterAll(() => database.close());

  it('migrate is a no-op once the schema is current', async () => {
    expect(await cli('migrate')).toMatchObject({ code: 0, out: { applied: [] }, stderr: '' });
  });

  it('manages workspaces, members and keys, one JSON object per command', async () => {
    const created = await cli(
      'workspace',
      'create',
      '--name',
      'North lab',
      '--plan',
      'pro_lab',
      '--type',
      'team',
    );
    expect(created).toMatchObject({
      code: 0,
      out: { name: 'North lab', plan: 'pro_lab' },
      stderr: '',
    });
    expect(Object.keys(created.out)).toEqual(['id', 'name', 'plan']);
    const ws: string = created.out.id;

    expect((await cli('workspace', 'set-plan', '--workspace', ws, '--plan', 'teams')).out).toEqual({
      id: ws,
      plan: 'teams',
    });
    expect(
      (await cli('workspace', 'set-features', '--workspace', ws, '--features', 'pricing, commerce'))
        .out,
    ).toEqual({
      id: ws,
      features: ['pricing', 'commerce'],
    });
    expect(
      (await cli('workspace', 'set-features', '--workspace', ws, '--features', '')).out,
    ).toEqual({ id: ws, features: [] });

    const member = await cli(
      'member',
      'add',
      '--workspace',
      ws,
      '--name',
      'Ann',
      '--email',
      'ann@example.com',
      '--role',
      'member',
    );
    expect(member.out).toEqual({ id: expect.stringMatching(UUID), role: 'member' });
    const memberId: string = member.out.id;
    expect(
      (await cli('member', 'set-role', '--member', memberId, '--role', 'manager')).out,
    ).toEqual({ id: memberId, role: 'manager' });

    const key = await cli(
      'key',
      'create',
      '--member',
      memberId,
      '--scopes',
      'read:plants,read:workspace',
      '--environment',
      'development',
    );
    expect(key.out).toEqual({
      id: expect.stringMatching(UUID),
      key: expect.stringMatching(/^xpk_dev_[0-9A-Za-z]{38}$/),
      prefix: expect.stringMatching(/^xpk_dev_/),
      scopes: ['read:workspace', 'read:plants'],
    });
    expect((await cli('key', 'create', '--member', memberId, '--scopes', '')).out.scopes).toEqual(
      [],
    );
    expect((await cli('key', 'create', '--member', memberId)).out.scopes).toHaveLength(46);

    const revoked = await cli('key', 'revoke', '--key', key.out.id);
    expect(revoked.out).toEqual({ id: key.out.id, revoked_at: expect.any(String) });
    expect((await cli('member', 'remove', '--member', memberId)).out).toEqual({
      id: memberId,
      status: 'removed',
    });
  });

  it('pauses a device and reports the tokens it revoked', async () => {
    const ws = (await cli('workspace', 'create', '--name', 'Sensor lab')).out.id as string;
    const device = await inTransaction(database.db, (trx) =>
      registerDevice(trx, {
        workspaceId: ws,
        name: 'Room sensor',
        createdBy: null,
      }),
    );
    await inTransaction(database.db, (trx) =>
      mintDeviceToken(trx, { workspaceId: ws, deviceId: device.id }),
    );
    expect(
      (await cli('device', 'set-status', '--device', device.id, '--status', 'paused')).out,
    ).toEqual({
      id: device.id,
      status: 'paused',
      revoked_tokens: 1,
    });
  });

  it('imports a file and refuses an invalid one without writing', async () => {
    const ws = (await cli('workspace', 'create', '--name', 'Import lab')).out.id as string;
    const dir = tempDir();
    const good = join(dir, 'good.json');
    writeFileSync(
      good,
      JSON.stringify({
        rooms: [{ id: newId(), name: 'Growth room' }],
        equipment: [{ name: 'Hood', category: 'laminar_flow_hood' }],
      }),
    );
    const imported = await cli('import', '--workspace', ws, '--file', good);
    expect(imported).toMatchObject({
      code: 0,
      out: { imported: { rooms: 1, equipment: 1, sops: 0 } },
    });

    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({ rooms: [{ name: 'Second room' }], sops: [{ title: 'x', level: 'guru' }] }),
    );
    const refused = await cli('import', '--workspace', ws, '--file', bad);
    expect(refused).toMatchObject({
      code: 1,
      stdout: '',
      err: { error: expect.stringContaining('sops[0].level: must be one of') },
    });
    const rooms = await database.db
      .selectFrom('rooms')
      .select('name')
      .where('workspace_id', '=', ws)
      .execute();
    expect(rooms).toEqual([{ name: 'Growth room' }]);

    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, '{ rooms: ');
    expect((await cli('import', '--workspace', ws, '--file', notJson)).err.error).toMatch(
      /is not valid JSON/,
    );
  });

  it('creates a demo lab', async () => {
    const demo = await cli('demo');
    expect(demo).toMatchObject({ code: 0, stderr: '' });
    expect(demo.out).toEqual({
      workspace_id: expect.stringMatching(UUID),
      key: expect.stringMatching(/^xpk_live_/),
      base_url: 'http://127.0.0.1:3000',
      // The key file of this database: demo-key.txt for the data directory's own SQLite file.
      key_file: demoKeyPath(env.VITRO_DATA_DIR!, loadConfig(env).database),
    });
  });

  it.each([
    [['workspace', 'create', '--name', 'x', '--plan', 'gold'], "argument 'gold' is invalid"],
    [['workspace', 'create'], "required option '--name <name>' not specified"],
    [['workspace', 'create', '--name', 'x', '--colour', 'red'], "unknown option '--colour'"],
    [['frobnicate'], "unknown command 'frobnicate'"],
    [['workspace'], 'a command is missing'],
    [
      ['member', 'add', '--workspace', newId(), '--name', 'x', '--role', 'owner'],
      'Workspace not found',
    ],
    [['member', 'set-role', '--member', newId(), '--role', 'owner'], 'Member not found'],
    [['key', 'revoke', '--key', newId()], 'API key not found'],
    [
      ['key', 'create', '--member', newId(), '--scopes', 'read:everything'],
      'scopes: unknown scope read:everything',
    ],
    [['import', '--workspace', newId(), '--file', '/nonexistent/file.json'], '--file: cannot read'],
  ])('fails with one JSON error on stderr: %j', async (argv, message) => {
    const result = await cli(...argv);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.err.error).toContain(message);
  });

  it('fails on a bad configuration value, naming the variable', async () => {
    const result = await runInProcess({ ...env, PORT: 'eighty' }, 'migrate');
    expect(result).toMatchObject({
      code: 1,
      stdout: '',
      err: { error: expect.stringMatching(/^PORT: /) },
    });
  });
});
