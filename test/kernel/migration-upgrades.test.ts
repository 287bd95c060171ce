import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, type Migration } from 'kysely';
import pg from 'pg';
import { beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { inTransaction } from '../../src/db/transaction.js';
import { SCOPES } from '../../src/kernel/access.js';
import { createApiKey } from '../../src/modules/identity/identity.service.js';
import { runInProcess } from '../cli/support.js';
import { TEST_SECRET, testConfig } from '../support/harness.js';
import { REPO_ROOT } from '../support/node-script.js';
import { asText, readBack, RELEASES, schemaOf, seed, SEEDED } from './migration-history.js';

const LANDING_ORDER = Object.keys(migrations);
const byName = (names: readonly string[]) => [...names].sort();

/**
 * Every state main has had: its frozen releases, and every prefix of the landing
 * order from the first release on (a release still to come lands at the end).
 */
function earlierStates(): { label: string; names: string[] }[] {
  const states = new Map<string, { label: string; names: string[] }>();
  for (const release of RELEASES) {
    states.set(byName(release.migrations).join(), {
      label: `release ${release.commit}`,
      names: byName(release.migrations),
    });
  }
  for (let n = RELEASES[0]!.migrations.length; n <= LANDING_ORDER.length; n++) {
    const names = byName(LANDING_ORDER.slice(0, n));
    if (!states.has(names.join())) {
      states.set(names.join(), { label: `the first ${n} migrations landed`, names });
    }
  }
  return [...states.values()];
}

interface UpgradeTarget {
  readonly name: 'sqlite' | 'postgres';
  /** A new empty database: its URL for the CLI, and how to drop it. */
  create(): Promise<{ url: string; drop: () => Promise<void> }>;
}

function upgradeTargets(): UpgradeTarget[] {
  const targets: UpgradeTarget[] = [
    {
      name: 'sqlite',
      create: async () => {
        const dir = mkdtempSync(join(tmpdir(), 'vitro-upgrade-'));
        return {
          url: `sqlite:${join(dir, 'vitro.db')}`,
          drop: async () => rmSync(dir, { recursive: true, force: true }),
        };
      },
    },
  ];
  const postgresUrl = inject('postgresUrl');
  if (postgresUrl !== null) {
    let count = 0;
    const admin = async <T>(run: (client: pg.Client) => Promise<T>): Promise<T> => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        return await run(client);
      } finally {
        await client.end();
      }
    };
    targets.push({
      name: 'postgres',
      // A database of its own (the test user creates databases, as the throwaway
      // clusters' owner does): Kysely looks for its migration table in every schema.
      create: async () => {
        const name = `vitro_upgrade_${process.pid}_${++count}`;
        await admin((client) => client.query(`create database ${name}`));
        const url = new URL(postgresUrl);
        url.pathname = `/${name}`;
        return {
          url: url.toString(),
          drop: async () => {
            await admin((client) => client.query(`drop database if exists ${name} with (force)`));
          },
        };
      },
    });
  }
  return targets;
}

const openUrl = (url: string): Database =>
  url.startsWith('sqlite:')
    ? openDatabase({ dialect: 'sqlite', path: url.slice('sqlite:'.length), url })
    : openDatabase({ dialect: 'postgres', url }, { poolSize: 2 });

/** Runs exactly these migrations, as a fresh install of that release did (in name order). */
async function installRelease(database: Database, names: readonly string[]): Promise<void> {
  const subset: Record<string, Migration> = {};
  for (const name of names) subset[name] = migrations[name]!;
  const { error } = await new Migrator({
    db: database.db,
    provider: { getMigrations: () => Promise.resolve(subset) },
  }).migrateToLatest();
  if (error !== undefined) throw error instanceof Error ? error : new Error(JSON.stringify(error));
}

describe('the migration list', () => {
  it('names each migration by a 14-digit timestamp and snake_case words, once, and lists every file', () => {
    for (const name of LANDING_ORDER) expect(name).toMatch(/^\d{14}_[a-z0-9]+(_[a-z0-9]+)*$/);
    const files = readdirSync(join(REPO_ROOT, 'src/db/migrations'))
      .filter((file) => file !== 'index.ts')
      .map((file) => file.replace(/\.ts$/, ''));
    expect(byName(LANDING_ORDER)).toEqual(byName(files));
  });

  it('is in landing order: each release of main is a prefix of it, and nothing a release ran is gone', () => {
    for (const release of RELEASES) {
      const prefix = LANDING_ORDER.slice(0, release.migrations.length);
      expect(byName(prefix), `release ${release.commit}`).toEqual(byName(release.migrations));
    }
    // Migrations landed out of name order, so only an order-free migrator can upgrade.
    expect(LANDING_ORDER).not.toEqual(byName(LANDING_ORDER));
  });
});

describe.each(upgradeTargets())('upgrading an earlier schema of main on $name', (target) => {
  let headSchema: unknown;
  beforeAll(async () => {
    const { url, drop } = await target.create();
    const database = openUrl(url);
    try {
      await migrateToLatest(database.db);
      headSchema = await schemaOf(database.db, target.name);
    } finally {
      await database.close();
      await drop();
    }
  });

  it.each(earlierStates())(
    '$label: `vitro migrate` runs what it lacks, keeps its data and ends in the schema of a fresh install',
    async ({ names }) => {
      const { url, drop } = await target.create();
      try {
        const old = openUrl(url);
        let seeded;
        try {
          await installRelease(old, names);
          seeded = await seed(old.db, names);
        } finally {
          await old.close();
        }

        const dataDir = mkdtempSync(join(tmpdir(), 'vitro-upgrade-data-'));
        onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
        const env = {
          VITRO_DATA_DIR: dataDir,
          DATABASE_URL: url,
          VITRO_SECRET: TEST_SECRET,
          LOG_LEVEL: 'silent',
        };
        const migrated = await runInProcess(env, 'migrate');
        expect(migrated.stderr).toBe('');
        expect(migrated.code).toBe(0);
        expect(migrated.out.applied).toEqual(
          byName(LANDING_ORDER.filter((name) => !names.includes(name))),
        );

        const database = openUrl(url);
        try {
          for (const row of seeded) {
            expect(await readBack(database.db, row), `${row.table} ${row.row.id}`).toEqual(
              asText(row.row),
            );
          }
          expect(await schemaOf(database.db, target.name)).toEqual(headSchema);

          // Today's server serves what the earlier release stored.
          const app = await buildApp(testConfig(), { logger: false, database });
          try {
            const key = await inTransaction(database.db, (trx) =>
              createApiKey(trx, { memberId: SEEDED.member, scopes: SCOPES }),
            );
            const get = async (path: string) => {
              const res = await app.inject({
                method: 'GET',
                url: `/api/v1/${path}`,
                headers: { authorization: `Bearer ${key.key}` },
              });
              expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
              return res.json().data as Record<string, unknown> & { id: string }[];
            };
            expect((await get(`plants/${SEEDED.plant}`)).species).toBe('Ficus lyrata');
            expect((await get(`explants/${SEEDED.explant}`)).plant_id).toBe(SEEDED.plant);
            // Lines stored before `occurred_key` existed are listed by it.
            expect((await get('commerce/order-lines')).map((line) => line.id)).toEqual([
              SEEDED.orderLine,
            ]);
          } finally {
            await app.close();
          }
        } finally {
          await database.close();
        }
      } finally {
        await drop();
      }
    },
  );
});
