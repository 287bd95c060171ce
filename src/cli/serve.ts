import { existsSync } from 'node:fs';
import { displayDatabaseUrl, loadConfig, type Config } from '../config.js';
import type { Database } from '../db/database.js';
import { upgradeDatabase } from '../db/upgrade.js';
import { createBlobStore } from '../files/create-blob-store.js';
import { tightenPrivateDirectory } from '../files/private-dirs.js';
import { createDemoLab, demoPhotos, discardDemoPhotos } from '../modules/demo/index.js';
import { createAuthenticator } from '../modules/auth/index.js';
import { hasAnyWorkspace } from '../modules/identity/index.js';
import { createRecordLookup } from '../modules/index.js';
import { startServer, type RunningServer } from '../server.js';
import { transact } from './database.js';
import { recordServerAddress } from './server-address.js';
import { checkDemoKeyFile, demoKeyPath, writeDemoKeyFile, type DemoKeyCheck } from './demo-key.js';
import type { CliIo } from './io.js';
import { explainStartupError, openCheckedDatabase } from './startup-errors.js';

/** What the start line says about the demo lab and its key file. */
type DemoInfo =
  | DemoKeyCheck
  | { status: 'created'; key_file: string; workspace_id: string; key: string }
  | { status: 'stale'; key_file: string; workspace_id: string; key: string; message: string };

/**
 * Beside the key, a way in for a person: the demo lab owner's sign-in link, or,
 * where the line would land in a log, the command that mints one.
 */
type DemoSignIn =
  | { base_url: string; sign_in_url: string; sign_in_expires_at: string }
  | { base_url: string; sign_in_command: string };

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
  const keyFile = demoKeyPath(config.dataDir, config.database);
  if (!existsSync(keyFile)) {
    await writeDemoKeyFile(config.dataDir, config.database, lab.key);
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

/**
 * Where a person opens the console: PUBLIC_URL when set, else the address the
 * server really listens on (the port it got, with a wildcard host such as 0.0.0.0
 * read as this machine's loopback).
 */
export function consoleBaseUrl(config: Config, listening: string): string {
  if (config.publicUrlSet) return config.publicUrl;
  const url = new URL(listening);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  if (url.hostname === '[::]') url.hostname = '[::1]';
  return url.origin;
}

/**
 * A sign-in link for the demo lab's owner (works once, within 15 minutes), when
 * the start line may carry a secret; else the command that mints one.
 */
async function demoSignIn(
  database: Database,
  ownerId: string,
  baseUrl: string,
  showSecrets: boolean,
): Promise<DemoSignIn> {
  if (!showSecrets) {
    return { base_url: baseUrl, sign_in_command: `npx vitro member link --member ${ownerId}` };
  }
  const { mintSignInLinkForMember } = await import('../modules/sessions/index.js');
  const link = await transact(database, (trx) =>
    mintSignInLinkForMember(trx, ownerId, baseUrl, new Date().toISOString()),
  );
  return { base_url: baseUrl, sign_in_url: link.url, sign_in_expires_at: link.expires_at };
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
  const baseUrl = consoleBaseUrl(config, server.url);
  try {
    recordServerAddress(config.dataDir, baseUrl);
  } catch (error) {
    server.app.log.warn(
      { err: error },
      'could not record the server address in the data directory (vitro member link reads it)',
    );
  }
  // Secrets (the demo key, a live sign-in link) go to a terminal, or on the first start
  // (the demo lab just made); never into the log of a service started again and again.
  const showSecrets = io.terminal === true || lab !== null;
  let demo: (DemoInfo & Partial<DemoSignIn>) | null = null;
  try {
    const authenticate = createAuthenticator(database, server.app.log);
    let owner: string | null = null;
    if (lab !== null) {
      demo = await saveNewDemoKey(config, lab);
      owner = (await authenticate(`Bearer ${lab.key}`)).memberId;
    } else if (options.demo || existsSync(demoKeyPath(config.dataDir, config.database))) {
      const found = await checkDemoKeyFile(config.dataDir, config.database, authenticate);
      demo = found.check;
      owner = found.memberId;
    }
    if (demo !== null && owner !== null) {
      demo = { ...demo, ...(await demoSignIn(database, owner, baseUrl, showSecrets)) };
    }
  } catch (error) {
    await server.close();
    throw explainStartupError(error, config, 'files');
  }
  const summary = {
    listening: server.url,
    console: `${baseUrl}/`,
    docs: `${server.url}/docs`,
    public_url: config.publicUrl,
    database: database.dialect,
    ...(demo === null ? {} : { demo }),
  };
  return { server, summary };
}
