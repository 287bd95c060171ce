import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'vitro-config-'));

describe('configuration', () => {
  it('has the documented defaults and is frozen', () => {
    const dir = dataDir();
    const config = loadConfig({ VITRO_DATA_DIR: dir });
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      publicUrl: 'http://127.0.0.1:3000',
      dataDir: dir,
      database: { dialect: 'sqlite', path: join(dir, 'vitro.db') },
      storage: { kind: 'file', root: join(dir, 'files') },
      redisUrl: null,
      logLevel: 'info',
      rateLimits: {
        keyPerMinute: 1000,
        workspacePerMinute: 3000,
        readingsKeyPer5Minutes: 5000,
        readingsWorkspacePer5Minutes: 10000,
      },
      allowedPrivateAddresses: [],
      metricsToken: null,
    });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.rateLimits)).toBe(true);
  });

  it('generates the secret once into the data directory and reuses it', () => {
    const dir = dataDir();
    const first = loadConfig({ VITRO_DATA_DIR: dir });
    const second = loadConfig({ VITRO_DATA_DIR: dir });
    expect(first.secret.length).toBeGreaterThanOrEqual(32);
    expect(second.secret).toBe(first.secret);
    expect(readFileSync(join(dir, 'secret'), 'utf8').trim()).toBe(first.secret);
    expect(statSync(join(dir, 'secret')).mode & 0o777).toBe(0o600);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      VITRO_DATA_DIR: dataDir(),
      HOST: '0.0.0.0',
      PORT: '8080',
      PUBLIC_URL: 'https://lab.example.org/',
      DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/vitro',
      STORAGE_URL: 's3://bucket?endpoint=http://127.0.0.1:9000&region=eu-1&force_path_style=true',
      REDIS_URL: 'redis://127.0.0.1:6379',
      VITRO_SECRET: 's'.repeat(40),
      VITRO_RATE_LIMIT_KEY_PER_MIN: '5',
      VITRO_RATE_LIMIT_WORKSPACE_PER_MIN: '6',
      VITRO_RATE_LIMIT_READINGS_KEY_PER_5MIN: '7',
      VITRO_RATE_LIMIT_READINGS_WORKSPACE_PER_5MIN: '8',
      VITRO_ALLOWED_PRIVATE_ADDRESSES: '10.0.0.0/8, 192.168.1.5',
      LOG_LEVEL: 'warn',
      METRICS_TOKEN: 'm'.repeat(20),
      READINGS_RETENTION_DAYS: '90',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 8080,
      publicUrl: 'https://lab.example.org',
      database: { dialect: 'postgres' },
      storage: {
        kind: 's3',
        bucket: 'bucket',
        endpoint: 'http://127.0.0.1:9000',
        region: 'eu-1',
        forcePathStyle: true,
      },
      redisUrl: 'redis://127.0.0.1:6379',
      secret: 's'.repeat(40),
      rateLimits: {
        keyPerMinute: 5,
        workspacePerMinute: 6,
        readingsKeyPer5Minutes: 7,
        readingsWorkspacePer5Minutes: 8,
      },
      allowedPrivateAddresses: ['10.0.0.0/8', '192.168.1.5/32'],
      logLevel: 'warn',
      metricsToken: 'm'.repeat(20),
      readingsRetentionDays: 90,
    });
    // Off unless set: raw readings are kept for ever.
    expect(loadConfig({ VITRO_DATA_DIR: dataDir() }).readingsRetentionDays).toBeNull();
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PUBLIC_URL', 'not a url'],
    ['PUBLIC_URL', 'ftp://x'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'sqlite:'],
    ['STORAGE_URL', 'gs://bucket'],
    ['REDIS_URL', 'http://redis'],
    ['VITRO_SECRET', 'short'],
    ['METRICS_TOKEN', 'too-short'],
    ['VITRO_RATE_LIMIT_KEY_PER_MIN', '0'],
    ['VITRO_RATE_LIMIT_WORKSPACE_PER_MIN', '-1'],
    ['VITRO_RATE_LIMIT_READINGS_KEY_PER_5MIN', '1.5'],
    ['VITRO_ALLOWED_PRIVATE_ADDRESSES', '10.0.0.0/99'],
    ['LOG_LEVEL', 'loud'],
    ['WEBHOOK_ALLOWED_HOSTS', 'lims lab'],
    ['WEBHOOK_ALLOWED_HOSTS', '10.0.0.0/99'],
    ['WEBHOOK_ALLOWED_HOSTS', 'https://lims.lab'],
    ['WEBHOOK_TIMEOUT_SECONDS', '0'],
    ['WEBHOOK_TIMEOUT_SECONDS', '31'],
    ['VITRO_WORKER', 'yes'],
    ['WEBHOOK_HOLD_WRITES', 'no'],
    ['DATABASE_PREPARED_STATEMENTS', 'no'],
    ['READINGS_RETENTION_DAYS', '0'],
    ['READINGS_RETENTION_DAYS', '30d'],
    ['READINGS_RETENTION_DAYS', '36501'],
  ])('stops with one line naming %s when it is %s', (variable, value) => {
    const attempt = () =>
      loadConfig({ VITRO_DATA_DIR: dataDir(), VITRO_SECRET: 'x'.repeat(32), [variable]: value });
    expect(attempt).toThrowError(ConfigError);
    expect(attempt).toThrowError(new RegExp(`^${variable}: [^\\n]+$`));
  });

  it('reads the webhook settings: allowed hosts and ranges, the attempt deadline, the hold on writes, the worker', () => {
    const config = loadConfig({
      VITRO_DATA_DIR: dataDir(),
      WEBHOOK_ALLOWED_HOSTS: ' LIMS.lab.local, *.hooks.lab ,192.168.10.0/24, 10.0.0.7, fd00::/8 ',
      WEBHOOK_TIMEOUT_SECONDS: '3',
      WEBHOOK_HOLD_WRITES: 'off',
      VITRO_WORKER: 'off',
    });
    expect(config.webhooks).toEqual({
      allowedHosts: ['lims.lab.local', '*.hooks.lab'],
      allowedRanges: ['192.168.10.0/24', '10.0.0.7/32', 'fd00::/8'],
      timeoutMs: 3000,
      holdWrites: false,
    });
    expect(config.worker).toBe(false);
    const defaults = loadConfig({ VITRO_DATA_DIR: dataDir() });
    expect(defaults.webhooks).toEqual({
      allowedHosts: [],
      allowedRanges: [],
      timeoutMs: 10_000,
      holdWrites: true,
    });
    expect(defaults.worker).toBe(true);
  });

  it('keeps fixed PostgreSQL queries by name unless DATABASE_PREPARED_STATEMENTS is off', () => {
    const url = 'postgres://vitro@db.lab:5432/vitro';
    const read = (env: Record<string, string>) =>
      loadConfig({
        VITRO_DATA_DIR: dataDir(),
        VITRO_SECRET: 'x'.repeat(32),
        DATABASE_URL: url,
        ...env,
      }).database;
    expect(read({})).toEqual({ dialect: 'postgres', url, preparedStatements: true });
    expect(read({ DATABASE_PREPARED_STATEMENTS: 'on' })).toMatchObject({
      preparedStatements: true,
    });
    expect(read({ DATABASE_PREPARED_STATEMENTS: 'off' })).toMatchObject({
      preparedStatements: false,
    });
  });

  it('reads the notification email settings: SMTP_URL and SMTP_FROM', () => {
    const off = loadConfig({ VITRO_DATA_DIR: dataDir() });
    expect(off.smtp).toBeNull();
    const on = loadConfig({
      VITRO_DATA_DIR: dataDir(),
      PUBLIC_URL: 'https://lab.example.org',
      SMTP_URL: 'smtps://vitro:secret@mail.example.org:465',
    });
    expect(on.smtp).toEqual({
      url: 'smtps://vitro:secret@mail.example.org:465',
      from: 'Vitro <vitro@lab.example.org>',
    });
    const named = loadConfig({
      VITRO_DATA_DIR: dataDir(),
      SMTP_URL: 'smtp://mail.example.org:587',
      SMTP_FROM: 'Tissue lab <lab@example.org>',
    });
    expect(named.smtp?.from).toBe('Tissue lab <lab@example.org>');
    const bad = (env: Record<string, string>) => () =>
      loadConfig({ VITRO_DATA_DIR: dataDir(), ...env });
    expect(bad({ SMTP_URL: 'http://mail.example.org' })).toThrowError(/^SMTP_URL: must start/);
    expect(bad({ SMTP_URL: 'mail.example.org' })).toThrowError(/^SMTP_URL: /);
    expect(bad({ SMTP_FROM: 'lab@example.org' })).toThrowError(/^SMTP_FROM: is set but SMTP_URL/);
    expect(bad({ SMTP_URL: 'smtp://mail.example.org', SMTP_FROM: 'not an address' })).toThrowError(
      /^SMTP_FROM: must be an address/,
    );
  });

  it('requires a shared secret when scaled out', () => {
    expect(() =>
      loadConfig({ VITRO_DATA_DIR: dataDir(), DATABASE_URL: 'postgres://127.0.0.1/x' }),
    ).toThrowError(/^VITRO_SECRET: /);
  });
});
