import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';

export interface ServerOptions {
  /** Serve this database (it is closed with the server); otherwise one is opened from the config. */
  database?: Database;
  /** Close the server on SIGINT/SIGTERM (default true). */
  handleSignals?: boolean;
  /** Pino logging; default on at LOG_LEVEL. */
  logger?: boolean;
  /** Where log lines go; default stdout. */
  logStream?: NodeJS.WritableStream;
}

export interface RunningServer {
  readonly app: FastifyInstance;
  /** The address actually listened on, e.g. http://127.0.0.1:3000. */
  readonly url: string;
  close(): Promise<void>;
}

/** A shutdown that has not finished in this time ends the process anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

/** Migrates the database, builds the app and listens on HOST:PORT. No business logic here. */
export async function startServer(
  config: Config,
  options: ServerOptions = {},
): Promise<RunningServer> {
  const database =
    options.database ?? openDatabase(config.database, { backgroundCheckpoints: true });
  let app: FastifyInstance | undefined;
  try {
    await migrateToLatest(database.db);
    app = await buildApp(config, {
      database,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(options.logStream === undefined ? {} : { logStream: options.logStream }),
    });
    const url = await app.listen({ host: config.host, port: config.port });
    return { app, url, close: closer(app, database, options.handleSignals ?? true) };
  } catch (error) {
    await app?.close();
    await database.close();
    throw error;
  }
}

function closer(app: FastifyInstance, database: Database, handleSignals: boolean) {
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await app.close();
      await database.close();
    })();
    return closing;
  };
  function onSignal(signal: NodeJS.Signals) {
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    close().then(
      () => {
        process.exitCode = 0;
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  }
  if (handleSignals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  return close;
}
