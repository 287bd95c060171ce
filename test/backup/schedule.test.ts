import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { tempDir } from '../cli/support.js';

interface Logged {
  msg: string;
  archive?: string;
  bytes?: number;
}

async function serveWithSchedule(extra: Record<string, string>) {
  const dir = tempDir();
  const backups = join(tempDir(), 'backups');
  const lines: Logged[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  const config = loadConfig({
    VITRO_DATA_DIR: dir,
    LOG_LEVEL: 'info',
    BACKUP_DIR: backups,
    ...extra,
  });
  const app = await buildApp(config, { logStream });
  await app.ready();
  return { app, backups, lines };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
};

async function metric(app: FastifyInstance, name: string): Promise<number> {
  const text = (await app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).body;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? Number.NaN : Number(line.split(' ')[1]);
}

const archivesIn = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.tar.gz'))
        .sort()
    : [];

describe('scheduled backups (BACKUP_DIR, BACKUP_EVERY, BACKUP_KEEP)', () => {
  it('write an archive every BACKUP_EVERY, keep the newest BACKUP_KEEP, and report in the log and /metrics', async () => {
    const { app, backups, lines } = await serveWithSchedule({
      BACKUP_EVERY: '1s',
      BACKUP_KEEP: '2',
    });
    try {
      const written = () => lines.filter((line) => line.msg === 'scheduled backup written');
      await until(() => written().length >= 3);
      const archives = archivesIn(backups);
      expect(archives).toHaveLength(2);
      const newest = written().at(-1)!;
      expect(archives.map((name) => join(backups, name))).toContain(newest.archive);
      expect(await metric(app, 'vitro_backup_last_success_timestamp_seconds')).toBeGreaterThan(
        Date.parse('2026-01-01') / 1000,
      );
      const size = await metric(app, 'vitro_backup_last_size_bytes');
      expect(archives.map((name) => statSync(join(backups, name)).size)).toContain(size);
      expect(await metric(app, 'vitro_backup_last_duration_seconds')).toBeGreaterThan(0);
      expect(await metric(app, 'vitro_backup_failures_total')).toBe(0);
    } finally {
      await app.close();
    }
  });

  it('encrypt every archive with BACKUP_RECIPIENTS, and count and prune .tar.gz.age ones', async () => {
    const identity = await generateIdentity();
    const { app, backups, lines } = await serveWithSchedule({
      BACKUP_EVERY: '1s',
      BACKUP_KEEP: '2',
      BACKUP_RECIPIENTS: await identityToRecipient(identity),
    });
    try {
      const written = () => lines.filter((line) => line.msg === 'scheduled backup written');
      await until(() => written().length >= 3);
      const archives = readdirSync(backups).filter((name) => name.startsWith('vitro-backup-'));
      expect(archives).toHaveLength(2);
      for (const name of archives) {
        expect(name).toMatch(/^vitro-backup-\d{8}T\d{6}Z\.tar\.gz\.age$/);
        expect(readFileSync(join(backups, name)).subarray(0, 21).toString()).toBe(
          'age-encryption.org/v1',
        );
      }
      expect(await metric(app, 'vitro_backup_failures_total')).toBe(0);
      // The schedule reads the time of its newest encrypted archive, as of a plain one.
      expect(await metric(app, 'vitro_backup_last_success_timestamp_seconds')).toBeGreaterThan(
        Date.parse('2026-01-01') / 1000,
      );
    } finally {
      await app.close();
    }
  });

  it('never run two at once: a backup another process is writing makes this one wait', async () => {
    const backups = join(tempDir(), 'backups');
    const { mkdirSync, rmSync } = await import('node:fs');
    mkdirSync(backups, { recursive: true });
    // A live process (this one) holds the directory's lock.
    writeFileSync(join(backups, '.vitro-backup.lock'), String(process.pid));
    const { app, lines } = await serveWithSchedule({ BACKUP_DIR: backups, BACKUP_EVERY: '1s' });
    try {
      const skipped = () => lines.filter((line) => line.msg.startsWith('scheduled backup skipped'));
      await until(() => skipped().length >= 2);
      expect(archivesIn(backups)).toEqual([]);
      rmSync(join(backups, '.vitro-backup.lock'));
      await until(() => archivesIn(backups).length >= 1);
    } finally {
      await app.close();
    }
  });

  it('a bad setting stops start-up naming it', () => {
    const dir = tempDir();
    expect(() =>
      loadConfig({ VITRO_DATA_DIR: dir, BACKUP_DIR: dir, BACKUP_EVERY: 'daily' }),
    ).toThrow(
      'BACKUP_EVERY: must be a duration such as 30m, 6h, 24h or 7d (from 1s to 366d), got "daily"',
    );
    expect(() => loadConfig({ VITRO_DATA_DIR: dir, BACKUP_DIR: dir, BACKUP_KEEP: '0' })).toThrow(
      'BACKUP_KEEP: must be a positive whole number, got "0"',
    );
    expect(() => loadConfig({ VITRO_DATA_DIR: dir, BACKUP_KEEP: '3' })).toThrow(
      'BACKUP_KEEP: is set but BACKUP_DIR is not',
    );
    expect(() =>
      loadConfig({
        VITRO_DATA_DIR: dir,
        BACKUP_DIR: dir,
        DATABASE_URL: 'postgres://vitro@127.0.0.1/vitro',
        VITRO_SECRET: 'x'.repeat(40),
      }),
    ).toThrow(/^BACKUP_DIR: scheduled backups are for the embedded shape/);
    expect(loadConfig({ VITRO_DATA_DIR: dir, BACKUP_DIR: dir }).backup).toEqual({
      dir,
      everyMs: 24 * 3600 * 1000,
      keep: 7,
    });
  });
});
