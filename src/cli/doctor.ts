import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sql, Migrator } from 'kysely';
import { listArchives, archiveTime } from '../backup/schedule.js';
import { displayDatabaseUrl, loadConfig, type Config } from '../config.js';
import { openDatabase, type Database } from '../db/database.js';
import { migrations } from '../db/migrations/index.js';
import { createBlobStore } from '../files/create-blob-store.js';
import { errorMessage, jsonLine, type CliIo } from './io.js';
import { otherFileStores } from '../files/store-presence.js';

export interface Check {
  readonly check: string;
  /** `warn`: worth doing something about, but nothing is broken (the command still passes). */
  readonly status: 'ok' | 'warn' | 'fail' | 'skip';
  readonly detail: string;
  /** What to do, for a failed check or a warning. */
  readonly fix?: string;
}

const ok = (check: string, detail: string): Check => ({ check, status: 'ok', detail });
const fail = (check: string, detail: string, fix: string): Check => ({
  check,
  status: 'fail',
  detail,
  fix,
});
const warn = (check: string, detail: string, fix: string): Check => ({
  check,
  status: 'warn',
  detail,
  fix,
});
const skip = (check: string, detail: string): Check => ({ check, status: 'skip', detail });

const GIB = 1024 ** 3;
/** More apart than this, signed links and idempotency leases misjudge time. */
const MAX_CLOCK_SKEW_MS = 2000;

const withTimeout = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms).unref(),
    ),
  ]);

async function checkDatabase(config: Config): Promise<{ check: Check; database: Database | null }> {
  const name = 'database';
  const shown = displayDatabaseUrl(config.database);
  if (config.database.dialect === 'sqlite' && config.database.path !== ':memory:') {
    if (!existsSync(config.database.path)) {
      return {
        check: fail(
          name,
          `there is no database at ${config.database.path}`,
          'start the server once (it creates and migrates it), or check DATABASE_URL and VITRO_DATA_DIR',
        ),
        database: null,
      };
    }
  }
  const database = openDatabase(config.database, { poolSize: 2 });
  try {
    await withTimeout(sql`select 1`.execute(database.db), 5000, 'the database');
  } catch (error) {
    await database.close();
    return {
      check: fail(
        name,
        `${shown} does not answer (${errorMessage(error)})`,
        'check that it runs and that DATABASE_URL names its host, port, database, user and password',
      ),
      database: null,
    };
  }
  const all = await new Migrator({
    db: database.db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  }).getMigrations();
  const pending = all.filter((m) => m.executedAt === undefined).map((m) => m.name);
  const known = new Set(Object.keys(migrations));
  const recorded = await sql<{ name: string }>`select name from kysely_migration`
    .execute(database.db)
    .then((r) => r.rows.map((row) => row.name))
    .catch(() => [] as string[]);
  const unknown = recorded.filter((migration) => !known.has(migration));
  if (unknown.length > 0) {
    return {
      check: fail(
        name,
        `${shown} answers, but its schema is newer than this Vitro (${unknown.length} migration(s) unknown here, e.g. ${unknown[0]})`,
        'run the Vitro version that upgraded it (or a later one)',
      ),
      database,
    };
  }
  if (pending.length > 0) {
    return {
      check: fail(
        name,
        `${shown} answers, but ${pending.length} migration(s) of this Vitro have not run (${pending[0]}…)`,
        'run `vitro migrate` (a start of `vitro serve` does it too, after copying an SQLite database beside itself)',
      ),
      database,
    };
  }
  return {
    check: ok(name, `${shown} answers; schema up to date (${all.at(-1)?.name ?? 'empty'})`),
    database,
  };
}

async function checkRedis(config: Config): Promise<Check> {
  const name = 'redis';
  if (config.redisUrl === null)
    return skip(name, 'REDIS_URL is not set: rate limits count in each process');
  const { Redis } = await import('ioredis');
  const redis = new Redis(config.redisUrl, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 3000,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await withTimeout(redis.connect(), 4000, 'Redis');
    const started = process.hrtime.bigint();
    await withTimeout(redis.ping(), 2000, 'Redis');
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    return ok(name, `answers PING in ${ms.toFixed(1)} ms`);
  } catch (error) {
    return fail(
      name,
      `${new URL(config.redisUrl).host} does not answer (${errorMessage(error)})`,
      'start Redis or fix REDIS_URL; meanwhile each process counts rate limits on its own',
    );
  } finally {
    redis.disconnect();
  }
}

async function checkStore(config: Config): Promise<Check> {
  const name = config.storage.kind === 'file' ? 'file store' : 'S3 bucket';
  const where =
    config.storage.kind === 'file' ? config.storage.root : `s3://${config.storage.bucket}`;
  const store = await createBlobStore(config);
  // At the top level: deleting it leaves no folder behind in a local store.
  const key = `vitro-doctor-${randomUUID()}.txt`;
  const bytes = Buffer.from(`vitro doctor ${new Date().toISOString()}\n`);
  let step = 'write';
  try {
    await withTimeout(store.put(key, bytes, 'text/plain'), 10_000, where);
    step = 'read';
    const blob = await withTimeout(store.get(key), 10_000, where);
    const chunks: Buffer[] = [];
    if (blob !== null) for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
    if (!Buffer.concat(chunks).equals(bytes)) throw new Error('read back other bytes');
    step = 'delete';
    await withTimeout(store.delete(key), 10_000, where);
    return ok(name, `${where}: a file was written, read back and deleted`);
  } catch (error) {
    return fail(
      name,
      `${where}: could not ${step} a file (${errorMessage(error)})`,
      config.storage.kind === 'file'
        ? 'make the directory writable by the server user, or fix STORAGE_URL'
        : 'check the bucket, its endpoint and region in STORAGE_URL and the AWS credentials',
    );
  } finally {
    store.close();
  }
}

async function checkPublicUrl(config: Config): Promise<Check> {
  const name = 'public url';
  const url = `${config.publicUrl}/healthz`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
    const body = (await res.json().catch(() => null)) as { ok?: unknown } | null;
    if (res.status === 200 && body?.ok === true) return ok(name, `${url} answers from Vitro`);
    return fail(
      name,
      `${url} answers ${res.status}, not Vitro's health check`,
      'point PUBLIC_URL (or the proxy in front) at this Vitro server',
    );
  } catch (error) {
    return fail(
      name,
      `${url} does not answer from this machine (${errorMessage(error)})`,
      'start the server (`vitro serve`); if it runs, set PUBLIC_URL to the address clients use and check that this machine reaches it',
    );
  }
}

async function checkDisk(config: Config): Promise<Check> {
  const name = 'disk space';
  let dir = config.dataDir;
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  const stats = await statfs(dir);
  const free = stats.bavail * stats.bsize;
  const databaseBytes =
    config.database.dialect === 'sqlite' && existsSync(config.database.path)
      ? statSync(config.database.path).size
      : 0;
  // Room for a backup and an upgrade's copy of the database, and some to grow.
  const needed = Math.max(GIB, 2 * databaseBytes);
  const shown = (bytes: number) => `${(bytes / GIB).toFixed(1)} GiB`;
  if (free >= needed) return ok(name, `${shown(free)} free in ${dir}`);
  return fail(
    name,
    `${shown(free)} free in ${dir}, less than ${shown(needed)} (a backup and an upgrade copy the database)`,
    'free space on that disk or move VITRO_DATA_DIR to a larger one',
  );
}

async function checkClock(config: Config, database: Database | null): Promise<Check> {
  const name = 'clock';
  if (config.database.dialect === 'sqlite') {
    return skip(name, 'the SQLite database uses this machine’s clock');
  }
  if (database === null) return skip(name, 'the database does not answer');
  const before = Date.now();
  const { rows } = await sql<{ now: Date }>`select now() as now`.execute(database.db);
  const after = Date.now();
  const skew = new Date(rows[0]!.now).getTime() - (before + after) / 2;
  const detail = `${Math.abs(Math.round(skew))} ms ${skew > 0 ? 'behind' : 'ahead of'} the database server`;
  if (Math.abs(skew) <= MAX_CLOCK_SKEW_MS + (after - before) / 2) return ok(name, detail);
  return fail(
    name,
    detail,
    'synchronise the clocks of this machine and the database server (NTP, e.g. systemd-timesyncd or chrony)',
  );
}

async function checkBackups(config: Config): Promise<Check> {
  const name = 'backups';
  if (config.database.dialect === 'postgres') {
    return skip(
      name,
      'PostgreSQL: back up with pg_dump or your provider (docs/operations.md); vitro backup covers one run',
    );
  }
  // A fresh install has none scheduled: worth saying, not a fault.
  if (config.backup === null) {
    return warn(
      name,
      'no scheduled backups (BACKUP_DIR is not set)',
      'set BACKUP_DIR (and BACKUP_EVERY, BACKUP_KEEP) and restart, or run `npx vitro backup` on a schedule of your own',
    );
  }
  const archives = await listArchives(config.backup.dir);
  const newest = archives.at(-1);
  if (newest === undefined) {
    return fail(
      name,
      `no archive in ${config.backup.dir} yet`,
      'start the server (the first backup runs at once) and look for "scheduled backup failed" in its log',
    );
  }
  const age = Date.now() - archiveTime(newest)!;
  const hours = (age / 3_600_000).toFixed(1);
  if (age > 2 * config.backup.everyMs) {
    return fail(
      name,
      `the newest archive, ${newest}, is ${hours} h old: more than twice BACKUP_EVERY`,
      'check that the server runs and look for "scheduled backup failed" in its log',
    );
  }
  return ok(name, `the newest archive, ${newest}, is ${hours} h old (${archives.length} kept)`);
}

/** The SMTP server of notification emails answers, and takes the login SMTP_URL names. */
async function checkSmtp(config: Config): Promise<Check> {
  const name = 'smtp';
  if (config.smtp === null) {
    return skip(name, 'SMTP_URL is not set: notifications stay in the inbox, no email');
  }
  const url = new URL(config.smtp.url);
  const shown = `${url.protocol}//${url.host}`;
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport(config.smtp.url);
  try {
    await withTimeout(transport.verify(), 15_000, shown);
    return ok(
      name,
      `${shown} answers and accepts the login; emails are sent from ${config.smtp.from}`,
    );
  } catch (error) {
    return fail(
      name,
      `${shown} does not take notification emails (${errorMessage(error)})`,
      'check the host, port, user and password in SMTP_URL (smtps:// for port 465) and that this machine reaches the server',
    );
  } finally {
    transport.close();
  }
}

function checkPermissions(config: Config): Check {
  const name = 'permissions';
  const paths = [config.dataDir];
  if (config.database.dialect === 'sqlite' && config.database.path !== ':memory:') {
    paths.push(config.database.path);
  }
  if (config.storage.kind === 'file') paths.push(config.storage.root);
  const open = paths.filter((path) => existsSync(path) && (statSync(path).mode & 0o077) !== 0);
  if (open.length === 0)
    return ok(name, 'the data directory, database and file store are the server user’s only');
  return fail(
    name,
    `other users may read ${open.join(', ')}`,
    `run \`chmod -R go-rwx ${open.join(' ')}\` (a start of \`vitro serve\` does it too)`,
  );
}

async function checkSharing(config: Config, database: Database | null): Promise<Check> {
  const name = 'shared photos';
  if (config.database.dialect !== 'postgres') return skip(name, 'one process (SQLite)');
  if (config.storage.kind !== 'file')
    return ok(name, 'photos are in an S3 bucket every process reads');
  if (database === null) return skip(name, 'the database does not answer');
  const others = await otherFileStores(database, config.storage.root);
  if (others === 0) {
    return ok(name, 'no other Vitro process with a file store of its own uses this database');
  }
  return fail(
    name,
    `${others} other Vitro process(es) use this database with a local file store of their own: a photo uploaded through one is not served by the others`,
    'set STORAGE_URL to an S3 bucket (or a directory all processes share) on every process',
  );
}

/** Every check, in order; a configuration that does not parse stops the rest. */
export async function runChecks(io: CliIo): Promise<Check[]> {
  let config: Config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    return [
      fail(
        'configuration',
        errorMessage(error),
        'fix the variable the message names (docs/configuration.md)',
      ),
    ];
  }
  const checks: Check[] = [
    ok(
      'configuration',
      `parses: ${config.database.dialect}, ${config.storage.kind === 'file' ? 'local file store' : 'S3 storage'}${config.redisUrl === null ? '' : ', Redis'}`,
    ),
  ];
  const { check, database } = await checkDatabase(config);
  checks.push(check);
  try {
    checks.push(await checkRedis(config));
    checks.push(await checkStore(config));
    checks.push(await checkPublicUrl(config));
    checks.push(await checkDisk(config));
    checks.push(await checkClock(config, database));
    checks.push(await checkBackups(config));
    checks.push(await checkSmtp(config));
    checks.push(checkPermissions(config));
    checks.push(await checkSharing(config, database));
  } finally {
    await database?.close();
  }
  return checks;
}

/** One line per check: `ok`/`warn`/`FAIL`/`skip`, its name, what was found and what to do. */
function line(check: Check): string {
  const status = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' }[check.status];
  const fix = check.fix === undefined ? '' : ` -> ${check.fix}`;
  return `${status}  ${check.check.padEnd(13)} ${check.detail}${fix}\n`;
}

/**
 * `vitro doctor [--json]`: what a person would otherwise find out the hard way.
 * Prints one line per check (or one JSON object); any failed check makes the
 * command fail (exit 1) after printing; a warning does not.
 */
export async function runDoctor(io: CliIo, options: { json?: boolean }): Promise<void> {
  const checks = await runChecks(io);
  const failed = checks.filter((check) => check.status === 'fail');
  if (options.json === true) io.out(jsonLine({ ok: failed.length === 0, checks }));
  else for (const check of checks) io.out(line(check));
  if (failed.length > 0) {
    throw new Error(
      `${failed.length} of ${checks.length} checks failed: ${failed.map((c) => c.check).join(', ')}`,
    );
  }
}
