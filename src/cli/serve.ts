import { existsSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { createDemoLab } from '../modules/demo/demo.service.js';
import { hasAnyWorkspace } from '../modules/identity/identity.service.js';
import { createRecordLookup } from '../modules/index.js';
import { startServer, type RunningServer } from '../server.js';
import { transact } from './database.js';
import type { CliIo } from './io.js';

export const DEMO_KEY_FILE = 'demo-key.txt';

interface DemoInfo {
  workspace_id?: string;
  key?: string;
  key_file: string;
}

/**
 * On a database without any workspace, creates the demo lab and writes its key
 * to `<data dir>/demo-key.txt` (mode 0600); later, only points at that file.
 */
async function prepareDemo(database: Database, dataDir: string): Promise<DemoInfo | null> {
  const keyFile = join(dataDir, DEMO_KEY_FILE);
  if (!(await hasAnyWorkspace(database.db))) {
    const lab = await transact(database, (trx) => createDemoLab(trx, createRecordLookup()));
    await mkdir(dataDir, { recursive: true });
    await writeFile(keyFile, `${lab.key}\n`, { mode: 0o600 });
    await chmod(keyFile, 0o600);
    return { workspace_id: lab.workspace_id, key: lab.key, key_file: keyFile };
  }
  return existsSync(keyFile) ? { key_file: keyFile } : null;
}

export interface ServeOptions {
  demo: boolean;
  /** Close on SIGINT/SIGTERM (default true). */
  handleSignals?: boolean;
  logger?: boolean;
}

/**
 * `vitro serve [--demo]`: migrates, seeds the demo lab when asked and the
 * database is empty, then listens. `summary` is the JSON line to print.
 */
export async function startServe(
  io: CliIo,
  options: ServeOptions,
): Promise<{ server: RunningServer; summary: object }> {
  const config = loadConfig(io.env);
  const database = openDatabase(config.database);
  let demo: DemoInfo | null = null;
  try {
    await migrateToLatest(database.db);
    if (options.demo) demo = await prepareDemo(database, config.dataDir);
  } catch (error) {
    await database.close();
    throw error;
  }
  const server = await startServer(config, {
    database,
    ...(options.handleSignals === undefined ? {} : { handleSignals: options.handleSignals }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    // stdout carries the one JSON line of the CLI contract; logs go to stderr.
    logStream: process.stderr,
  });
  const summary = {
    listening: server.url,
    docs: `${server.url}/docs`,
    public_url: config.publicUrl,
    database: database.dialect,
    ...(demo === null ? {} : { demo }),
  };
  return { server, summary };
}
