import { inTransaction } from '../../src/db/transaction.js';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { buildApp, type AppOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { SCOPES, type Plan, type Role, type Scope } from '../../src/kernel/access.js';
import type { Environment } from '../../src/kernel/credentials.js';
import type { Principal } from '../../src/kernel/principal.js';
import { mintDeviceToken, registerDevice } from '../../src/modules/devices/index.js';
import { addMember, createApiKey, createWorkspace } from '../../src/modules/identity/index.js';

export interface DatabaseTarget {
  readonly name: 'sqlite' | 'postgres';
  open(): Promise<Database>;
}

/** SQLite in memory: for suites whose subject no database changes (the OpenAPI document, headers). */
export function sqliteTarget(): DatabaseTarget {
  return databaseTargets()[0]!;
}

/** SQLite always; PostgreSQL when the global setup found or started one. */
export function databaseTargets(): DatabaseTarget[] {
  const targets: DatabaseTarget[] = [
    {
      name: 'sqlite',
      open: async () => {
        const database = openDatabase({
          dialect: 'sqlite',
          path: ':memory:',
          url: 'sqlite::memory:',
        });
        await migrateToLatest(database.db);
        return database;
      },
    },
  ];
  const postgresUrl = inject('postgresUrl');
  if (postgresUrl !== null) {
    targets.push({
      name: 'postgres',
      open: async () => openDatabase({ dialect: 'postgres', url: postgresUrl }, { poolSize: 20 }),
    });
  }
  return targets;
}

/**
 * The databases of a test that runs a delivery worker: SQLite, and PostgreSQL in a
 * database of its own. A worker serves every workspace of its database, so on the
 * PostgreSQL database other test files share (where their servers run workers too) it
 * would take, and be taken, work that is not its test's. Falls back to the shared
 * database when this user may not create one.
 */
export function isolatedTargets(): DatabaseTarget[] {
  return databaseTargets().map((target) =>
    target.name === 'sqlite'
      ? target
      : {
          name: 'postgres',
          open: async () => {
            const shared = await target.open();
            const name = `vitro_hooks_${randomUUID().replace(/-/g, '')}`;
            try {
              await sql`create database ${sql.id(name)}`.execute(shared.db);
            } catch {
              return shared;
            }
            await shared.close();
            const url = new URL(inject('postgresUrl')!);
            url.pathname = `/${name}`;
            const own = openDatabase(
              { dialect: 'postgres', url: url.toString() },
              { poolSize: 20 },
            );
            await migrateToLatest(own.db);
            return {
              ...own,
              close: async () => {
                await own.close();
                const admin = await target.open();
                try {
                  await sql`drop database if exists ${sql.id(name)}`.execute(admin.db);
                } finally {
                  await admin.close();
                }
              },
            };
          },
        },
  );
}

/**
 * Two database handles on one store, as two processes have: the same SQLite file, or
 * the same PostgreSQL database. The caller closes both.
 */
export async function twoHandles(target: DatabaseTarget): Promise<[Database, Database]> {
  if (target.name === 'postgres') return [await target.open(), await target.open()];
  const path = join(mkdtempSync(join(tmpdir(), 'vitro-shared-')), 'vitro.db');
  const open = () => openDatabase({ dialect: 'sqlite', path, url: `sqlite:${path}` });
  const first = open();
  await migrateToLatest(first.db);
  return [first, open()];
}

export function redisUrl(): string | null {
  return inject('redisUrl');
}

export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123456789';

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    VITRO_DATA_DIR: mkdtempSync(join(tmpdir(), 'vitro-test-')),
    DATABASE_URL: 'sqlite::memory:',
    VITRO_SECRET: TEST_SECRET,
    LOG_LEVEL: 'silent',
    // Background work (webhook deliveries) only where a test turns it on.
    VITRO_WORKER: 'off',
    // Tests refuse many credentials from one address (inject's 127.0.0.1); the
    // failed-credential budget has its own tests (test/kernel/rate-limit.test.ts).
    VITRO_RATE_LIMIT_AUTH_FAILURES_PER_MIN: '100000',
    ...env,
  });
}

export interface TestApp {
  readonly app: FastifyInstance;
  readonly config: Config;
  readonly database: Database;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function startTestApp(
  target: DatabaseTarget,
  options: { env?: Record<string, string> } & Omit<AppOptions, 'database'> = {},
): Promise<TestApp> {
  const database = await target.open();
  const { env, ...appOptions } = options;
  const config = testConfig(env);
  // The readings upkeep runs when a test asks: on the shared PostgreSQL database an hourly
  // run of another test's app would remove readings a retention test is counting.
  const app = await buildApp(config, {
    logger: false,
    readingsMaintenance: false,
    ...appOptions,
    database,
  });
  await app.ready();
  return {
    app,
    config,
    database,
    request: (injectOptions) => app.inject(injectOptions),
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

export interface Actor {
  readonly memberId: string;
  readonly keyId: string;
  readonly key: string;
  readonly role: Role;
  readonly headers: { authorization: string };
}

export interface Lab {
  readonly workspaceId: string;
  readonly owner: Actor;
  /** Another member with a key, of the given role and scopes (default all scopes). */
  actor(
    role: Role,
    options?: { scopes?: readonly Scope[]; environment?: Environment },
  ): Promise<Actor>;
  /** A device of this workspace and a device token for it. */
  deviceToken(): Promise<{ deviceId: string; token: string; headers: { authorization: string } }>;
}

/** A fresh workspace (one per test) with an owner holding a key with every scope. */
export async function createLab(
  database: Database,
  options: { plan?: Plan; name?: string } = {},
): Promise<Lab> {
  const workspace = await inTransaction(database.db, (trx) =>
    createWorkspace(trx, {
      name: options.name ?? 'Test lab',
      plan: options.plan ?? 'teams',
    }),
  );
  const actor = async (
    role: Role,
    actorOptions: { scopes?: readonly Scope[]; environment?: Environment } = {},
  ): Promise<Actor> => {
    const member = await inTransaction(database.db, (trx) =>
      addMember(trx, {
        workspaceId: workspace.id,
        name: `${role} member`,
        role,
      }),
    );
    const created = await inTransaction(database.db, (trx) =>
      createApiKey(trx, {
        memberId: member.id,
        scopes: actorOptions.scopes ?? SCOPES,
        ...(actorOptions.environment ? { environment: actorOptions.environment } : {}),
      }),
    );
    return {
      memberId: member.id,
      keyId: created.id,
      key: created.key,
      role,
      headers: { authorization: `Bearer ${created.key}` },
    };
  };
  const owner = await actor('owner');
  return {
    workspaceId: workspace.id,
    owner,
    actor,
    deviceToken: async () => {
      const device = await inTransaction(database.db, (trx) =>
        registerDevice(trx, {
          workspaceId: workspace.id,
          name: 'Test sensor',
          createdBy: owner.memberId,
        }),
      );
      const token = await inTransaction(database.db, (trx) =>
        mintDeviceToken(trx, {
          workspaceId: workspace.id,
          deviceId: device.id,
        }),
      );
      return {
        deviceId: device.id,
        token: token.token,
        headers: { authorization: `Bearer ${token.token}` },
      };
    },
  };
}

/** The principal of the lab owner's key (teams plan, every scope): for services called directly. */
export function ownerPrincipal(lab: Lab): Principal {
  return {
    kind: 'key',
    credentialId: lab.owner.keyId,
    workspaceId: lab.workspaceId,
    plan: 'teams',
    features: [],
    memberId: lab.owner.memberId,
    role: 'owner',
    deviceId: null,
    scopes: SCOPES,
    key: null,
  };
}

/** The parsed JSON body of a response. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON bodies loosely
export function body<T = any>(response: LightMyRequestResponse): T {
  return response.json<T>();
}
