import { sep } from 'node:path';
import { sql } from 'kysely';
import { ConfigError, dataDirError, displayDatabaseUrl, type Config } from '../config.js';
import { openDatabase, type Database, type OpenOptions } from '../db/database.js';

/** What was being done when start-up failed: it decides which setting the message names. */
export type StartupStep = 'database' | 'listen' | 'files';

const FILE_SYSTEM_CODES = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'ENOENT', 'EEXIST']);
const SQLITE_OPEN_CODES = /^SQLITE_(CANTOPEN|READONLY|PERM)/;
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** PostgreSQL SQLSTATEs of a connection that could not be made or was refused. */
const POSTGRES_CONNECT_STATES = /^(08|28)|^3D000$|^57P03$|^53300$/;

interface SystemError {
  code?: unknown;
  syscall?: unknown;
  hostname?: unknown;
  message?: unknown;
}

/** The first underlying error (connecting to a host name with two addresses fails twice). */
function rootOf(error: unknown): SystemError {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return rootOf(error.errors[0]);
  }
  return typeof error === 'object' && error !== null ? error : {};
}

function codeOf(error: SystemError): string {
  return typeof error.code === 'string' ? error.code : '';
}

function without(text: string, secret: string): string {
  return secret === '' ? text : text.split(secret).join('***');
}

function postgresPassword(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
}

function databaseError(error: unknown, config: Config): ConfigError | null {
  const root = rootOf(error);
  const code = codeOf(root);
  const database = config.database;
  if (database.dialect === 'sqlite') {
    if (!FILE_SYSTEM_CODES.has(code) && !SQLITE_OPEN_CODES.test(code)) return null;
    if (database.path.startsWith(config.dataDir + sep)) {
      return dataDirError(
        config.dataDir,
        error,
        `the SQLite database ${database.path} cannot be created or written`,
      );
    }
    return new ConfigError(
      'DATABASE_URL',
      `cannot create or write the SQLite database ${database.path} (${code}); ` +
        'point DATABASE_URL at a file in a writable directory',
    );
  }
  if (!NETWORK_CODES.has(code) && !POSTGRES_CONNECT_STATES.test(code)) return null;
  const message = typeof root.message === 'string' && root.message !== '' ? root.message : code;
  const reason = without(without(message, postgresPassword(database.url)), database.url);
  return new ConfigError(
    'DATABASE_URL',
    `cannot connect to PostgreSQL at ${displayDatabaseUrl(database)} (${reason}); check that ` +
      'it runs and that DATABASE_URL names its host, port, database, user and password',
  );
}

function listenError(error: unknown, config: Config): ConfigError | null {
  const root = rootOf(error);
  const code = codeOf(root);
  const at = `${config.host}:${config.port}`;
  switch (code) {
    case 'EADDRINUSE':
      return new ConfigError(
        'PORT',
        `${at} is already in use (another Vitro or another program listens there); ` +
          'stop it or set PORT to a free port',
      );
    case 'EACCES':
      return new ConfigError(
        'PORT',
        `not allowed to listen on ${at} (ports below 1024 need privileges); set PORT to 1024 or above`,
      );
    case 'EADDRNOTAVAIL':
      return new ConfigError(
        'HOST',
        `${config.host} is not an address of this machine, so it cannot be listened on; set ` +
          'HOST to one of its addresses, 127.0.0.1 (this machine only) or 0.0.0.0 (all interfaces)',
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new ConfigError(
        'HOST',
        `"${config.host}" does not resolve to an address (${code}); set HOST to an address ` +
          'of this machine, 127.0.0.1 (this machine only) or 0.0.0.0 (all interfaces)',
      );
    default:
      return null;
  }
}

/**
 * A start-up failure as one line naming the setting to fix (PORT, HOST,
 * VITRO_DATA_DIR, DATABASE_URL without its password); anything else unchanged.
 */
export function explainStartupError(error: unknown, config: Config, step: StartupStep): unknown {
  if (error instanceof ConfigError) return error;
  switch (step) {
    case 'database':
      return databaseError(error, config) ?? error;
    case 'listen':
      return listenError(error, config) ?? error;
    case 'files':
      return FILE_SYSTEM_CODES.has(codeOf(rootOf(error)))
        ? dataDirError(config.dataDir, error, 'cannot write the demo key file there')
        : error;
  }
}

/**
 * Opens the configured database and makes one round trip, so that a database
 * that cannot be created, opened or reached fails here, named by the setting to
 * fix, rather than later inside a migration.
 */
export async function openCheckedDatabase(
  config: Config,
  options: OpenOptions = {},
): Promise<Database> {
  let database: Database;
  try {
    database = openDatabase(config.database, options);
  } catch (error) {
    throw explainStartupError(error, config, 'database');
  }
  try {
    await sql`select 1`.execute(database.db);
  } catch (error) {
    await database.close();
    throw explainStartupError(error, config, 'database');
  }
  return database;
}
