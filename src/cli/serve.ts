import { existsSync } from 'node:fs';
import { displayDatabaseUrl, loadConfig, type Config } from '../config.js';
import { upgradeDatabase } from '../db/upgrade.js';
import { createBlobStore } from '../files/create-blob-store.js';
import { tightenPrivateDirectory } from '../files/private-dirs.js';
import { createDemoLab, demoPhotos, discardDemoPhotos } from '../modules/demo/index.js';
import { createAuthenticator } from '../modules/auth/index.js';
import { hasAnyWorkspace } from '../modules/identity/index.js';
import { createRecordLookup } from '../modules/index.js';
import { startServer, type RunningServer } from '../server.js';
import { transact } from './database.js';
import { checkDemoKeyFile, demoKeyPath, writeDemoKeyFile, type DemoKeyCheck } from './demo-key.js';
import type { CliIo } from './io.js';
import { explainStartupError, openCheckedDatabase } from './startup-errors.js';

/** What the start line says about the demo lab and its key file. */
type DemoInfo =
  | DemoKeyCheck
  | { status: 'created'; key_file: string; workspace_id: string; key: string }
  | { status: 'stale'; key_file: string; workspace_id: string; key: string; message: string };

/**
 * A demo lab just created on an empty database: its key goes into the key file
 * unless the file already exists. Then it holds the key of another database (or
 * of this one before it was emptied) and is left alone: only `vitro demo`
 * replaces it. The key is shown in the start line either way.
 */
async function saveNewDemoKey(
  config: Config,
  lab: { workspace_id: string; key: string },
): Promise<DemoInfo> {
  const keyFile = demoKeyPath(config.dataDir);
  if (!existsSync(keyFile)) {
    await writeDemoKeyFile(config.dataDir, lab.key);
    return { status: 'created', key_file: keyFile, ...lab };
  }
  return {
    status: 'stale',
    key_file: keyFile,
    ...lab,
    message:
      `created a demo lab in this empty database (${displayDatabaseUrl(config.database)}); ` +
      `its key is shown here only, because ${keyFile} already holds a key that does not work ` +
      'against this database (it may belong to another one) and is left as it is; run ' +
      '`npx vitro demo` (same environment) to save a demo key of this database there',
  };
}

export interface ServeOptions {
  demo: boolean;
  /** Close on SIGINT/SIGTERM (default true). */
  handleSignals?: boolean;
  logger?: boolean;
}

/**
 * `vitro serve [--demo]`: migrates, seeds the demo lab when asked and the
 * database is empty, then listens. `summary` is the JSON line to print: it says
 * whether the saved demo key works against this database (with --demo, or
 * whenever the key file exists).
 */
export async function startServe(
  io: CliIo,
  options: ServeOptions,
): Promise<{ server: RunningServer; summary: object }> {
  const config = loadConfig(io.env);
  await tightenPrivateDirectory(config.dataDir);
  if (config.storage.kind === 'file') await tightenPrivateDirectory(config.storage.root);
  const database = await openCheckedDatabase(config, { backgroundCheckpoints: true });
  let lab: { workspace_id: string; key: string } | null = null;
  try {
    await upgradeDatabase(database, config.database);
    if (options.demo && !(await hasAnyWorkspace(database.db))) {
      const store = await createBlobStore(config);
      const photos = demoPhotos(store);
      try {
        lab = await transact(database, (trx) =>
          createDemoLab(trx, createRecordLookup(), new Date(), photos),
        );
      } catch (error) {
        await discardDemoPhotos(photos);
        throw error;
      } finally {
        store.close();
      }
    }
  } catch (error) {
    await database.close();
    throw explainStartupError(error, config, 'database');
  }
  let server: RunningServer;
  try {
    server = await startServer(config, {
      database,
      ...(options.handleSignals === undefined ? {} : { handleSignals: options.handleSignals }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      // stdout carries the one JSON line of the CLI contract; logs go to stderr.
      logStream: process.stderr,
    });
  } catch (error) {
    throw explainStartupError(error, config, 'listen');
  }
  let demo: DemoInfo | null = null;
  try {
    if (lab !== null) {
      demo = await saveNewDemoKey(config, lab);
    } else if (options.demo || existsSync(demoKeyPath(config.dataDir))) {
      const authenticate = createAuthenticator(database, server.app.log);
      demo = await checkDemoKeyFile(
        config.dataDir,
        authenticate,
        displayDatabaseUrl(config.database),
      );
    }
  } catch (error) {
    await server.close();
    throw explainStartupError(error, config, 'files');
  }
  const summary = {
    listening: server.url,
    docs: `${server.url}/docs`,
    public_url: config.publicUrl,
    database: database.dialect,
    ...(demo === null ? {} : { demo }),
  };
  return { server, summary };
}
