import { chmodSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { startServe } from '../../src/cli/serve.js';
import { tempDir } from './support.js';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** Every file and folder under `dir`, with its mode. */
function modesUnder(dir: string): Record<string, string> {
  const modes: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    modes[entry] = modeOf(join(dir, entry));
  }
  return modes;
}

async function serve(env: Record<string, string>) {
  const io = { env, out: () => undefined, err: () => undefined };
  return startServe(io, { demo: true, handleSignals: false, logger: false });
}

/** The lab's records are the server user's alone: nothing in the data directory is readable by others. */
describe('file permissions', () => {
  it('a new data directory, its database, WAL, SHM, secret, key and photos are the owner’s only', async () => {
    const parent = tempDir();
    const dataDir = join(parent, 'data');
    const { server } = await serve({ VITRO_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' });
    try {
      const modes = modesUnder(dataDir);
      expect(modeOf(dataDir)).toBe('700');
      expect(modes['vitro.db']).toBe('600');
      expect(modes['vitro.db-wal']).toBe('600');
      expect(modes['vitro.db-shm']).toBe('600');
      expect(modes).toMatchObject({ secret: '600', 'demo-key.txt': '600', files: '700' });
      const photos = Object.keys(modes).filter((path) => path.endsWith('.png'));
      expect(photos.length).toBeGreaterThan(0);
      for (const [path, mode] of Object.entries(modes)) {
        const directory = statSync(join(dataDir, path)).isDirectory();
        expect(`${path} ${mode}`).toBe(`${path} ${directory ? '700' : '600'}`);
      }
    } finally {
      await server.close();
    }
  });

  it('a data directory and database an older version created open are tightened at start', async () => {
    const dataDir = tempDir();
    const path = join(dataDir, 'vitro.db');
    const db = new SqliteDatabase(path);
    db.pragma('journal_mode = WAL');
    db.close();
    chmodSync(path, 0o644);
    chmodSync(dataDir, 0o755);
    const { server } = await serve({ VITRO_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' });
    try {
      expect(modeOf(dataDir)).toBe('700');
      expect(modeOf(path)).toBe('600');
      expect(modeOf(`${path}-wal`)).toBe('600');
    } finally {
      await server.close();
    }
  });
});
