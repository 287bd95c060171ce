import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import ipaddr from 'ipaddr.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export type DatabaseConfig =
  | { readonly dialect: 'sqlite'; readonly path: string; readonly url: string }
  | {
      readonly dialect: 'postgres';
      readonly url: string;
      /** Fixed queries kept per connection by name (DATABASE_PREPARED_STATEMENTS); absent is on. */
      readonly preparedStatements?: boolean;
    };

export type StorageConfig =
  | { readonly kind: 'file'; readonly root: string }
  | {
      readonly kind: 's3';
      readonly bucket: string;
      readonly endpoint: string | null;
      readonly region: string | null;
      readonly forcePathStyle: boolean;
    };

export interface RateLimitConfig {
  readonly keyPerMinute: number;
  readonly workspacePerMinute: number;
  readonly readingsKeyPer5Minutes: number;
  readonly readingsWorkspacePer5Minutes: number;
  /** Failed credentials (401) per client address per minute; past it, 429. */
  readonly authFailuresPerMinute: number;
}

export interface WebhookConfig {
  /** Host names (lower case; `*.` prefix for a whole domain) a webhook may reach on the LAN. */
  readonly allowedHosts: readonly string[];
  /** CIDRs a webhook may reach although private. */
  readonly allowedRanges: readonly string[];
  /** The deadline of one delivery attempt. */
  readonly timeoutMs: number;
  /** Whether a saturated process holds write requests while its deliveries fall behind. */
  readonly holdWrites: boolean;
}

/** Scheduled backups of the embedded shape (docs/operations.md). */
export interface BackupScheduleConfig {
  /** Where archives go. */
  readonly dir: string;
  readonly everyMs: number;
  /** How many archives are kept; older ones are deleted after each success. */
  readonly keep: number;
}

/**
 * How archives are encrypted (age): to a passphrase, or to recipients' public keys
 * (`age1…`), whose identities (private keys) decrypt them away from the server.
 */
export type BackupEncryption =
  | { readonly kind: 'passphrase'; readonly passphrase: string }
  | { readonly kind: 'recipients'; readonly recipients: readonly string[] };

/** Notification emails (SMTP_URL, SMTP_FROM). */
export interface SmtpConfig {
  /** smtp://user:password@host:587 (STARTTLS when the server offers it) or smtps://…:465. */
  readonly url: string;
  /** The From of every email: an address, or `Name <address>`. */
  readonly from: string;
}

/** The server's own certificate (VITRO_TLS_CERT, VITRO_TLS_KEY): it listens on https. */
export interface TlsConfig {
  /** PEM files: the certificate (with its chain) and its private key. */
  readonly certFile: string;
  readonly keyFile: string;
}

export interface Config {
  readonly host: string;
  readonly port: number;
  /** Listen on https with these files; null = plain http (behind a proxy that ends TLS, or none). */
  readonly tls: TlsConfig | null;
  readonly publicUrl: string;
  /** Whether PUBLIC_URL was set; otherwise links for people use the address they opened. */
  readonly publicUrlSet: boolean;
  readonly dataDir: string;
  readonly database: DatabaseConfig;
  readonly storage: StorageConfig;
  readonly redisUrl: string | null;
  readonly secret: string;
  readonly rateLimits: RateLimitConfig;
  readonly allowedPrivateAddresses: readonly string[];
  readonly webhooks: WebhookConfig;
  /** Whether this process runs the background work: webhook deliveries and the alert timer. */
  readonly worker: boolean;
  /** Origins whose pages may call the API with a key (CORS); empty = no CORS headers. */
  readonly corsOrigins: readonly string[];
  readonly logLevel: LogLevel;
  /** Bearer token GET /metrics requires; null = it answers loopback clients only. */
  readonly metricsToken: string | null;
  /**
   * Days raw sensor readings are kept in workspaces without their own setting;
   * null = for ever (the default). Rollups are kept for ever either way.
   */
  readonly readingsRetentionDays: number | null;
  /** Scheduled backups (BACKUP_DIR), or null when off. */
  readonly backup: BackupScheduleConfig | null;
  /** How long a console session lasts from sign-in, however much it is used. */
  readonly sessionLifetimeMs: number;
  /**
   * Encryption of every archive, scheduled or `vitro backup` (BACKUP_RECIPIENTS or
   * BACKUP_PASSPHRASE_FILE); null = archives are plain (mode 0600).
   */
  readonly backupEncryption: BackupEncryption | null;
  /** Where notification emails are sent through; null = no emails (the inbox only). */
  readonly smtp: SmtpConfig | null;
}

/** The longest retention a setting may name: 100 years (any longer is for ever). */
export const MAX_RETENTION_DAYS = 36_500;

/** A bad configuration value; its message is the one line printed at start-up. */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS: readonly LogLevel[] = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
];

export const DEFAULT_RATE_LIMITS: RateLimitConfig = Object.freeze({
  keyPerMinute: 1000,
  workspacePerMinute: 3000,
  readingsKeyPer5Minutes: 5000,
  readingsWorkspacePer5Minutes: 10000,
  authFailuresPerMinute: 30,
});

type Env = Readonly<Record<string, string | undefined>>;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function positiveInt(env: Env, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new ConfigError(name, `must be a positive whole number, got "${raw}"`);
  }
  return Number(raw);
}

function parsePort(env: Env): number {
  const raw = read(env, 'PORT');
  if (raw === undefined) return 3000;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) {
    throw new ConfigError('PORT', `must be a whole number from 0 to 65535, got "${raw}"`);
  }
  return port;
}

/** A PEM file the server reads at start: it must be there and readable now. */
function readableFile(env: Env, name: string): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  const file = resolve(raw);
  try {
    readFileSync(file);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new ConfigError(name, `cannot read ${file} (${String(code ?? error)})`);
  }
  return file;
}

function parseTls(env: Env): TlsConfig | null {
  const certFile = readableFile(env, 'VITRO_TLS_CERT');
  const keyFile = readableFile(env, 'VITRO_TLS_KEY');
  if (certFile === undefined && keyFile === undefined) return null;
  if (certFile === undefined || keyFile === undefined) {
    throw new ConfigError(
      certFile === undefined ? 'VITRO_TLS_CERT' : 'VITRO_TLS_KEY',
      'set both VITRO_TLS_CERT (the certificate, PEM) and VITRO_TLS_KEY (its private key, PEM) to serve https',
    );
  }
  return Object.freeze({ certFile, keyFile });
}

function parsePublicUrl(env: Env, host: string, port: number, tls: boolean): string {
  const raw = read(env, 'PUBLIC_URL');
  if (raw === undefined) {
    const shownHost = host.includes(':') ? `[${host}]` : host;
    return `${tls ? 'https' : 'http'}://${shownHost}:${port}`;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('PUBLIC_URL', `must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('PUBLIC_URL', `must use http or https, got "${url.protocol}"`);
  }
  return raw.replace(/\/+$/, '');
}

function parseDatabase(env: Env, dataDir: string): DatabaseConfig {
  const raw = read(env, 'DATABASE_URL') ?? `sqlite:${join(dataDir, 'vitro.db')}`;
  const prepared = read(env, 'DATABASE_PREPARED_STATEMENTS') ?? 'on';
  if (prepared !== 'on' && prepared !== 'off') {
    throw new ConfigError('DATABASE_PREPARED_STATEMENTS', `must be on or off, got "${prepared}"`);
  }
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length);
    if (path === '') throw new ConfigError('DATABASE_URL', 'sqlite: needs a file path or :memory:');
    if (path === ':memory:') return { dialect: 'sqlite', path, url: raw };
    return { dialect: 'sqlite', path: resolve(path), url: raw };
  }
  if (raw.startsWith('postgres://') || raw.startsWith('postgresql://')) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    return { dialect: 'postgres', url: raw, preparedStatements: prepared === 'on' };
  }
  throw new ConfigError(
    'DATABASE_URL',
    'must start with sqlite: or postgres:// (e.g. sqlite:./data/vitro.db)',
  );
}

/** A database URL fit to print: the password, if any, replaced by `***`. */
export function displayDatabaseUrl(database: DatabaseConfig): string {
  if (database.dialect === 'sqlite') return `sqlite:${database.path}`;
  try {
    const url = new URL(database.url);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return 'postgres://…';
  }
}

function parseStorage(env: Env, dataDir: string): StorageConfig {
  const raw = read(env, 'STORAGE_URL') ?? `file:${join(dataDir, 'files')}`;
  if (raw.startsWith('file:')) {
    const root = raw.slice('file:'.length);
    if (root === '') throw new ConfigError('STORAGE_URL', 'file: needs a directory path');
    return { kind: 'file', root: resolve(root) };
  }
  if (raw.startsWith('s3://')) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ConfigError('STORAGE_URL', 'is not a valid s3:// URL');
    }
    if (url.hostname === '') throw new ConfigError('STORAGE_URL', 's3:// needs a bucket name');
    const forcePathStyle = url.searchParams.get('force_path_style');
    if (forcePathStyle !== null && forcePathStyle !== 'true' && forcePathStyle !== 'false') {
      throw new ConfigError('STORAGE_URL', 'force_path_style must be true or false');
    }
    return {
      kind: 's3',
      bucket: url.hostname,
      endpoint: url.searchParams.get('endpoint'),
      region: url.searchParams.get('region'),
      forcePathStyle: forcePathStyle === 'true',
    };
  }
  throw new ConfigError('STORAGE_URL', 'must start with file: or s3://');
}

function parseRedisUrl(env: Env): string | null {
  const raw = read(env, 'REDIS_URL');
  if (raw === undefined) return null;
  if (!raw.startsWith('redis://') && !raw.startsWith('rediss://')) {
    throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://');
  }
  return raw;
}

function commaParts(raw: string): string[] {
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** An IP or CIDR as `address/bits`, or null when it is neither. */
function normalCidr(text: string): string | null {
  try {
    const [address, bits] = text.includes('/')
      ? ipaddr.parseCIDR(text)
      : [ipaddr.parse(text), text.includes(':') ? 128 : 32];
    if (!text.includes('/') && !ipaddr.isValid(text)) return null;
    return `${address.toString()}/${bits}`;
  } catch {
    return null;
  }
}

function parseCidrs(env: Env): string[] {
  const raw = read(env, 'VITRO_ALLOWED_PRIVATE_ADDRESSES');
  if (raw === undefined) return [];
  return commaParts(raw).map((cidr) => {
    const normal = normalCidr(cidr);
    if (normal === null) {
      throw new ConfigError('VITRO_ALLOWED_PRIVATE_ADDRESSES', `"${cidr}" is not an IP or CIDR`);
    }
    return normal;
  });
}

const HOST_NAME =
  /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

function parseWebhooks(env: Env): WebhookConfig {
  const hosts: string[] = [];
  const ranges: string[] = [];
  for (const entry of commaParts(read(env, 'WEBHOOK_ALLOWED_HOSTS') ?? '')) {
    const cidr = /^[\d.:/a-fA-F]+$/.test(entry) ? normalCidr(entry) : null;
    if (cidr !== null) ranges.push(cidr);
    else if (HOST_NAME.test(entry.toLowerCase()) && entry.length <= 253) {
      hosts.push(entry.toLowerCase());
    } else {
      throw new ConfigError(
        'WEBHOOK_ALLOWED_HOSTS',
        `"${entry}" is not a host name, *.domain, IP address or CIDR`,
      );
    }
  }
  const timeout = positiveInt(env, 'WEBHOOK_TIMEOUT_SECONDS', 10);
  if (timeout > 30) {
    throw new ConfigError('WEBHOOK_TIMEOUT_SECONDS', `must be from 1 to 30, got "${timeout}"`);
  }
  const hold = read(env, 'WEBHOOK_HOLD_WRITES') ?? 'on';
  if (hold !== 'on' && hold !== 'off') {
    throw new ConfigError('WEBHOOK_HOLD_WRITES', `must be on or off, got "${hold}"`);
  }
  return Object.freeze({
    allowedHosts: Object.freeze(hosts),
    allowedRanges: Object.freeze(ranges),
    timeoutMs: timeout * 1000,
    holdWrites: hold === 'on',
  });
}

function parseWorker(env: Env): boolean {
  const worker = read(env, 'VITRO_WORKER') ?? 'on';
  if (worker !== 'on' && worker !== 'off') {
    throw new ConfigError('VITRO_WORKER', `must be on or off, got "${worker}"`);
  }
  return worker === 'on';
}

/** `CORS_ORIGINS`: exact origins (scheme, host, port), comma-separated; never `*`. */
function parseCorsOrigins(env: Env): string[] {
  const raw = read(env, 'CORS_ORIGINS');
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((origin) => {
      if (origin === '*') {
        throw new ConfigError(
          'CORS_ORIGINS',
          'list the origins allowed one by one; * is not accepted',
        );
      }
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        throw new ConfigError(
          'CORS_ORIGINS',
          `"${origin}" is not an origin such as https://tools.example.org`,
        );
      }
      if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin) {
        throw new ConfigError(
          'CORS_ORIGINS',
          `"${origin}" is not an origin such as https://tools.example.org (scheme, host and port only)`,
        );
      }
      return url.origin;
    });
}

function parseMetricsToken(env: Env): string | null {
  const raw = read(env, 'METRICS_TOKEN');
  if (raw === undefined) return null;
  if (raw.length < 16 || /\s/.test(raw)) {
    throw new ConfigError(
      'METRICS_TOKEN',
      'must be at least 16 characters without spaces (e.g. openssl rand -hex 24)',
    );
  }
  return raw;
}

function parseRetentionDays(env: Env): number | null {
  const raw = read(env, 'READINGS_RETENTION_DAYS');
  if (raw === undefined) return null;
  const days = Number(raw);
  if (!/^\d+$/.test(raw) || days < 1 || days > MAX_RETENTION_DAYS) {
    throw new ConfigError(
      'READINGS_RETENTION_DAYS',
      `must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}, or unset to keep raw readings for ever, got "${raw}"`,
    );
  }
  return days;
}

function parseLogLevel(env: Env): LogLevel {
  const raw = read(env, 'LOG_LEVEL') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  }
  return raw as LogLevel;
}

const DURATION_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30m`, `24h`, `7d`: at least a second, at most a year. */
function parseDuration(env: Env, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const match = /^(\d+)\s*([smhd])$/.exec(raw);
  const ms = match ? Number(match[1]) * DURATION_UNITS[match[2]!]! : Number.NaN;
  if (!(ms >= 1000 && ms <= 366 * DURATION_UNITS.d!)) {
    throw new ConfigError(
      name,
      `must be a duration such as 30m, 6h, 24h or 7d (from 1s to 366d), got "${raw}"`,
    );
  }
  return ms;
}

function parseBackupSchedule(env: Env, database: DatabaseConfig): BackupScheduleConfig | null {
  const dir = read(env, 'BACKUP_DIR');
  if (dir === undefined) {
    for (const name of ['BACKUP_EVERY', 'BACKUP_KEEP']) {
      if (read(env, name) !== undefined) {
        throw new ConfigError(
          name,
          'is set but BACKUP_DIR is not; set BACKUP_DIR to a directory for the archives',
        );
      }
    }
    return null;
  }
  if (database.dialect === 'postgres') {
    throw new ConfigError(
      'BACKUP_DIR',
      'scheduled backups are for the embedded shape (SQLite); on PostgreSQL back up with ' +
        'pg_dump or your provider, as docs/upgrading.md and docs/operations.md say',
    );
  }
  if (database.path === ':memory:') {
    throw new ConfigError(
      'BACKUP_DIR',
      'an in-memory database (sqlite::memory:) has nothing to back up',
    );
  }
  return {
    dir: resolve(dir),
    everyMs: parseDuration(env, 'BACKUP_EVERY', DURATION_UNITS.d!),
    keep: positiveInt(env, 'BACKUP_KEEP', 7),
  };
}

/** A passphrase shorter than this is refused: it guards every record of the lab. */
export const MIN_PASSPHRASE_LENGTH = 10;

/** The passphrase a file holds: its first line, as it is. */
export function readPassphraseFile(file: string, name: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new ConfigError(name, `cannot read ${file} (${String(code ?? error)})`);
  }
  const passphrase = text.split(/\r?\n/)[0] ?? '';
  if (passphrase.length < MIN_PASSPHRASE_LENGTH) {
    throw new ConfigError(
      name,
      `${file} must hold a passphrase of at least ${MIN_PASSPHRASE_LENGTH} characters on its ` +
        'first line (e.g. five random words)',
    );
  }
  return passphrase;
}

/** An age recipient: `age1` and bech32 (a native or post-quantum public key). */
const AGE_RECIPIENT = /^age1[0-9a-z]{50,}$/;

/** Checks recipients' shape (the age library checks them fully when it encrypts). */
export function ageRecipients(raw: readonly string[], name: string): string[] {
  if (raw.length === 0) throw new ConfigError(name, 'needs at least one age1… recipient');
  for (const recipient of raw) {
    if (!AGE_RECIPIENT.test(recipient)) {
      throw new ConfigError(
        name,
        `"${recipient}" is not an age recipient (a public key age1…, as age-keygen prints it)`,
      );
    }
  }
  return [...raw];
}

function parseBackupEncryption(env: Env): BackupEncryption | null {
  const recipients = read(env, 'BACKUP_RECIPIENTS');
  const passphraseFile = read(env, 'BACKUP_PASSPHRASE_FILE');
  if (recipients !== undefined && passphraseFile !== undefined) {
    throw new ConfigError(
      'BACKUP_RECIPIENTS',
      'set either BACKUP_RECIPIENTS or BACKUP_PASSPHRASE_FILE, not both (an age archive is ' +
        'encrypted to recipients or to a passphrase)',
    );
  }
  if (recipients !== undefined) {
    return {
      kind: 'recipients',
      recipients: Object.freeze(ageRecipients(commaParts(recipients), 'BACKUP_RECIPIENTS')),
    };
  }
  if (passphraseFile !== undefined) {
    return {
      kind: 'passphrase',
      passphrase: readPassphraseFile(resolve(passphraseFile), 'BACKUP_PASSPHRASE_FILE'),
    };
  }
  return null;
}

/** A From address: `name@host`, or `Display Name <name@host>`. */
const FROM_ADDRESS = /^(?:[^<>\r\n]+ <[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

function parseSmtp(env: Env, publicUrl: string): SmtpConfig | null {
  const raw = read(env, 'SMTP_URL');
  const from = read(env, 'SMTP_FROM');
  if (raw === undefined) {
    if (from !== undefined) {
      throw new ConfigError('SMTP_FROM', 'is set but SMTP_URL is not; set SMTP_URL to send email');
    }
    return null;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(
      'SMTP_URL',
      'must be a URL such as smtp://user:password@mail.example.org:587',
    );
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    throw new ConfigError(
      'SMTP_URL',
      'must start with smtp:// (port 587 or 25, STARTTLS when offered) or smtps:// (port 465) and name a host',
    );
  }
  const sender = from ?? `Vitro <vitro@${new URL(publicUrl).hostname.replace(/^\[|\]$/g, '')}>`;
  if (!FROM_ADDRESS.test(sender)) {
    throw new ConfigError('SMTP_FROM', `must be an address or "Name <address>", got "${sender}"`);
  }
  return Object.freeze({ url: raw, from: sender });
}

/** Reads the secret from the environment, else from (or newly into) the data directory. */
function resolveSecret(env: Env, dataDir: string, scaledOut: boolean): string {
  const raw = read(env, 'VITRO_SECRET');
  if (raw !== undefined) {
    if (raw.length < 32) throw new ConfigError('VITRO_SECRET', 'must be at least 32 characters');
    return raw;
  }
  if (scaledOut) {
    throw new ConfigError(
      'VITRO_SECRET',
      'is required with PostgreSQL or Redis (every process must share one secret)',
    );
  }
  const file = join(dataDir, 'secret');
  try {
    if (existsSync(file)) {
      const stored = readFileSync(file, 'utf8').trim();
      if (stored.length < 32)
        throw new ConfigError('VITRO_SECRET', `${file} holds a too-short secret`);
      return stored;
    }
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const secret = randomBytes(32).toString('base64url');
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
    return secret;
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw dataDirError(dataDir, error, `cannot keep the generated secret in ${file}`);
  }
}

/** A file-system failure under the data directory, as the one start-up line names it. */
export function dataDirError(dataDir: string, error: unknown, what: string): ConfigError {
  const code = (error as { code?: unknown }).code;
  const reason = typeof code === 'string' ? code : String(error);
  return new ConfigError(
    'VITRO_DATA_DIR',
    `${dataDir} is not a writable directory (${reason}): ${what}; make it writable by ` +
      'this user or point VITRO_DATA_DIR at a directory that is',
  );
}

/** Parses the environment once into a frozen Config; throws ConfigError on the first bad value. */
export function loadConfig(env: Env = process.env): Config {
  const host = read(env, 'HOST') ?? '127.0.0.1';
  const port = parsePort(env);
  const dataDirRaw = read(env, 'VITRO_DATA_DIR') ?? './data';
  const dataDir = isAbsolute(dataDirRaw) ? dataDirRaw : resolve(dataDirRaw);
  const database = parseDatabase(env, dataDir);
  const redisUrl = parseRedisUrl(env);
  const tls = parseTls(env);
  const config: Config = {
    host,
    port,
    tls,
    publicUrl: parsePublicUrl(env, host, port, tls !== null),
    publicUrlSet: read(env, 'PUBLIC_URL') !== undefined,
    dataDir,
    database,
    storage: parseStorage(env, dataDir),
    redisUrl,
    rateLimits: Object.freeze({
      keyPerMinute: positiveInt(
        env,
        'VITRO_RATE_LIMIT_KEY_PER_MIN',
        DEFAULT_RATE_LIMITS.keyPerMinute,
      ),
      workspacePerMinute: positiveInt(
        env,
        'VITRO_RATE_LIMIT_WORKSPACE_PER_MIN',
        DEFAULT_RATE_LIMITS.workspacePerMinute,
      ),
      readingsKeyPer5Minutes: positiveInt(
        env,
        'VITRO_RATE_LIMIT_READINGS_KEY_PER_5MIN',
        DEFAULT_RATE_LIMITS.readingsKeyPer5Minutes,
      ),
      readingsWorkspacePer5Minutes: positiveInt(
        env,
        'VITRO_RATE_LIMIT_READINGS_WORKSPACE_PER_5MIN',
        DEFAULT_RATE_LIMITS.readingsWorkspacePer5Minutes,
      ),
      authFailuresPerMinute: positiveInt(
        env,
        'VITRO_RATE_LIMIT_AUTH_FAILURES_PER_MIN',
        DEFAULT_RATE_LIMITS.authFailuresPerMinute,
      ),
    }),
    allowedPrivateAddresses: Object.freeze(parseCidrs(env)),
    webhooks: parseWebhooks(env),
    worker: parseWorker(env),
    corsOrigins: Object.freeze(parseCorsOrigins(env)),
    logLevel: parseLogLevel(env),
    metricsToken: parseMetricsToken(env),
    readingsRetentionDays: parseRetentionDays(env),
    backup: parseBackupSchedule(env, database),
    sessionLifetimeMs: parseDuration(env, 'VITRO_SESSION_LIFETIME', 30 * DURATION_UNITS.d!),
    backupEncryption: parseBackupEncryption(env),
    smtp: null,
    secret: '',
  };
  const secret = resolveSecret(env, dataDir, database.dialect === 'postgres' || redisUrl !== null);
  return Object.freeze({ ...config, smtp: parseSmtp(env, config.publicUrl), secret });
}

export const DEMO_KEY_FILE = 'demo-key.txt';

/**
 * The demo key file of a database: `demo-key.txt` for the data directory's own
 * SQLite database (the default), else one named after the database
 * (`demo-key.postgres-1a2b3c4d.txt`, from a digest of its URL without password).
 * A key file belongs to the database it was made for: a demo made on PostgreSQL
 * never replaces the SQLite demo's key.
 */
export function demoKeyPath(dataDir: string, database: DatabaseConfig): string {
  const own = database.dialect === 'sqlite' && database.path === resolve(dataDir, 'vitro.db');
  if (own) return join(dataDir, DEMO_KEY_FILE);
  const digest = createHash('sha256').update(displayDatabaseUrl(database)).digest('hex');
  return join(dataDir, `demo-key.${database.dialect}-${digest.slice(0, 8)}.txt`);
}
