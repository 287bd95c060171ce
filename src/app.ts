import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Config, TlsConfig } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { installCors } from './kernel/cors.js';
import { BODY_LIMIT_BYTES, installHttpConventions } from './kernel/http.js';
import { purgeExpiredIdempotencyKeys } from './kernel/idempotency.js';
import { writesSettled } from './kernel/writes-in-flight.js';
import { serializeRequest } from './kernel/log-redaction.js';
import { installMetrics, ownHostNames } from './kernel/metrics.js';
import { installOpenApi } from './kernel/openapi.js';
import { CursorCodec } from './kernel/paging.js';
import {
  answerClientError,
  frameworkErrorHandler,
  installProtocolErrors,
  MAX_PARAM_LENGTH,
} from './kernel/protocol-errors.js';
import { createRateLimiter } from './kernel/rate-limit.js';
import { installConsole } from './console/serve.js';
import { createBlobStore, createFileLinkSigner } from './files/create-blob-store.js';
import { registerFileRoutes } from './files/file-routes.js';
import { fetchImage, type FetchImageOptions } from './files/image-fetch.js';
import { createRoutes, type Kernel, type Routes } from './kernel/routes/index.js';
import { createValidatorCompiler } from './kernel/validation.js';
import { createAuthenticator } from './modules/auth/index.js';
import {
  createRecordLookup,
  createSpreadsheetSource,
  registerApiRoutes,
  registerSystemRoutes,
} from './modules/index.js';
import { startSilenceTimer } from './modules/alerts/index.js';
import { startSearchCatchUp } from './modules/search/index.js';
import {
  DeliveryThread,
  DeliveryWorker,
  deliveryThreadAvailable,
  DeliveryPressure,
  type Deliverer,
  holdWritesForDelivery,
  targetPolicy,
  type DeliveryWorkerOptions,
} from './modules/webhooks/index.js';
import { createSessionAuthenticator, purgeFinishedSessions } from './modules/sessions/index.js';
import { startReadingsMaintenance, type ReadingsMaintenance } from './modules/readings/index.js';
import { startReminders } from './modules/reminders/index.js';
import { startInsightsDrain } from './modules/insights/index.js';
import {
  EmailWorker,
  purgeEmails,
  registerUnsubscribeRoutes,
  UnsubscribeLinks,
} from './modules/notifications/index.js';

export interface AppOptions {
  /** Use this database (tests share one); otherwise one is opened from the config and closed with the app. */
  database?: Database;
  /** Use this Redis client for rate limits; otherwise one is made from REDIS_URL when set. */
  redis?: Redis | null;
  /** Key prefix of the rate-limit counters (tests isolate apps sharing one Redis). */
  rateLimitPrefix?: string;
  /** Logging at LOG_LEVEL (default on); false turns it off. */
  logger?: boolean;
  /** Where log lines go; default stdout. `vitro serve` sends them to stderr. */
  logStream?: NodeJS.WritableStream;
  /** Settings of the image_url download beyond the configuration (tests trust their own CA). */
  imageFetch?: Pick<FetchImageOptions, 'ca' | 'resolver' | 'deadlineMs'>;
  /** Registers extra routes (tests exercise the kernel with them). */
  extraRoutes?: (routes: Routes) => void;
  /** Settings of webhook deliveries beyond the configuration (tests trust their own CA). */
  webhooks?: Pick<DeliveryWorkerOptions, 'ca' | 'resolver' | 'pollMs'> & {
    /** The write gate's measure (tests pass their own, with a fixed clock and load). */
    pressure?: DeliveryPressure;
  };
  /**
   * Readings upkeep (partitions, retention) every hour; default true. False: it runs
   * only when asked (`app.readingsMaintenance.runNow()`).
   */
  readingsMaintenance?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Readings upkeep: partitions and retention (modules/readings/maintenance.ts). */
    readingsMaintenance: ReadingsMaintenance;
  }
}

const PURGE_INTERVAL_MS = 10 * 60 * 1000;

function createRedis(url: string, app: FastifyInstance): Redis {
  const redis = new Redis(url, {
    // Fail fast while disconnected so the in-memory insurance limiter takes over.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
  });
  let lastWarning = 0;
  redis.on('error', (error: unknown) => {
    if (Date.now() - lastWarning < 30_000) return;
    lastWarning = Date.now();
    app.log.warn({ err: error }, 'Redis unavailable: rate limits fall back to this process');
  });
  return redis;
}

const serializeJson = (data: unknown): string => JSON.stringify(data);

const tlsFiles = (tls: TlsConfig) => ({
  cert: readFileSync(tls.certFile),
  key: readFileSync(tls.keyFile),
});

/** Builds the whole API as a ready-to-inject Fastify instance; the server only listens on it. */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    logger:
      options.logger === false || config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers["idempotency-key"]'],
            // Logged URLs never carry a key sent in the query string, nor a whole cursor.
            serializers: { req: serializeRequest },
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT_BYTES,
    exposeHeadRoutes: false,
    // Answered 503 in the envelope by the HTTP conventions instead.
    return503OnClosing: false,
    // Requests refused before any route runs are answered in the envelope too.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler: (error, socket) => answerClientError(error, socket, app.log),
    // A missing Host is refused by the HTTP conventions, in the envelope.
    http: { requireHostHeader: false },
    // VITRO_TLS_CERT/KEY: https on the server's own certificate (service workers, and so the
    // console opening offline, need a secure context). Same app, another kind of socket.
    ...(config.tls === null ? {} : { https: tlsFiles(config.tls) }),
  });
  app.setValidatorCompiler(createValidatorCompiler());
  // Answers are what the presenters build, field for field, so they are written with
  // the native JSON.stringify, not a serializer compiled from the response schema:
  // that one is slower on every answer measured, by half on a page of 1,000 sensor
  // readings, and it leaves a rope of concatenated strings that Content-Length and
  // the socket must flatten again. The fuzz test holds every success answer to its
  // documented schema, undocumented fields refused.
  app.setSerializerCompiler(() => serializeJson);

  const ownsDatabase = options.database === undefined;
  const database =
    options.database ?? openDatabase(config.database, { backgroundCheckpoints: true });
  const ownsRedis = options.redis === undefined && config.redisUrl !== null;
  const redis =
    options.redis !== undefined
      ? options.redis
      : config.redisUrl !== null
        ? createRedis(config.redisUrl, app)
        : null;

  const kernel: Kernel = {
    config,
    database,
    authenticate: createAuthenticator(database, app.log),
    sessions: createSessionAuthenticator(database, app.log, {
      publicUrl: config.publicUrl,
      lifetimeMs: config.sessionLifetimeMs,
    }),
    rateLimiter: createRateLimiter({
      limits: config.rateLimits,
      redis,
      ...(options.rateLimitPrefix ? { prefix: options.rateLimitPrefix } : {}),
    }),
    cursors: new CursorCodec(config.secret),
    spreadsheet: createSpreadsheetSource(),
  };

  const http = installHttpConventions(app);
  installCors(app, config.corsOrigins);
  installProtocolErrors(app);
  const metrics = installMetrics(app, {
    token: config.metricsToken,
    hostNames: ownHostNames({
      machine: hostname(),
      publicUrl: config.publicUrl,
      host: config.host,
    }),
  });
  const webhookPolicy = targetPolicy(config.webhooks);
  // Background work (webhook deliveries, the alert timer), in any number of processes; off where
  // VITRO_WORKER=off (and in the tests, unless one turns it on). The built server delivers on a
  // thread of its own, with its own connection; in-process where there is no module a thread can
  // load (the TypeScript source), no database it can open (in memory), or where a test hands the
  // worker objects a thread cannot share (its CA or resolver).
  const ownThread =
    deliveryThreadAvailable() &&
    !(config.database.dialect === 'sqlite' && config.database.path === ':memory:') &&
    options.webhooks?.ca === undefined &&
    options.webhooks?.resolver === undefined;
  // How far behind deliveries run, told by the worker or its thread: the write gate's measure.
  const pressure = options.webhooks?.pressure ?? new DeliveryPressure();
  const worker: Deliverer | null = !config.worker
    ? null
    : ownThread
      ? new DeliveryThread(
          {
            database: config.database,
            ...(database.writeTurn !== undefined ? { writeTurn: database.writeTurn } : {}),
            webhooks: config.webhooks,
            ...(options.webhooks?.pollMs !== undefined ? { pollMs: options.webhooks.pollMs } : {}),
          },
          app.log,
          pressure,
        )
      : new DeliveryWorker({
          database,
          policy: webhookPolicy,
          timeoutMs: config.webhooks.timeoutMs,
          log: app.log,
          ...options.webhooks,
          pressure,
        });
  if (worker !== null && config.webhooks.holdWrites) holdWritesForDelivery(app, pressure, metrics);
  await installOpenApi(app, config.publicUrl, kernel.sessions.cookieName);

  registerSystemRoutes(app, database);
  await installConsole(app, config, http);
  const blobs = await createBlobStore(config);
  // Local files are served at signed /files/… links; S3 hands out presigned links itself.
  if (config.storage.kind === 'file') {
    registerFileRoutes(app, { store: blobs, signer: createFileLinkSigner(config) });
  }
  const routes = createRoutes(app, kernel);
  const records = createRecordLookup();
  registerApiRoutes(routes, {
    webhooks: { policy: webhookPolicy },
    records,
    files: {
      store: blobs,
      fetch: async (url) =>
        (
          await fetchImage(url, {
            allowedPrivate: config.allowedPrivateAddresses,
            ...options.imageFetch,
          })
        ).bytes,
    },
    publicUrlSet: config.publicUrlSet,
    sessionLifetimeMs: config.sessionLifetimeMs,
    emailAvailable: config.smtp !== null,
  });
  options.extraRoutes?.(routes);
  // Notification emails: their unsubscribe links, and the worker that sends them.
  const unsubscribe = new UnsubscribeLinks(config.secret, config.publicUrl);
  registerUnsubscribeRoutes(app, { database, links: unsubscribe });
  const emails =
    config.smtp === null || !config.worker
      ? null
      : new EmailWorker({
          database,
          smtp: config.smtp,
          publicUrl: config.publicUrl,
          links: unsubscribe,
          log: app.log,
        });

  const purge = () => {
    purgeExpiredIdempotencyKeys(database.db).catch((error: unknown) =>
      app.log.warn({ err: error }, 'could not purge expired idempotency keys'),
    );
    purgeFinishedSessions(database.db, config.sessionLifetimeMs).catch((error: unknown) =>
      app.log.warn({ err: error }, 'could not purge finished sessions and sign-in links'),
    );
    purgeEmails(database.db, {
      finished: new Date(Date.now() - 30 * 86_400_000).toISOString(),
      pending: new Date(Date.now() - 86_400_000).toISOString(),
    }).catch((error: unknown) =>
      app.log.warn({ err: error }, 'could not purge notification emails'),
    );
  };
  const purgeTimer = setInterval(purge, PURGE_INTERVAL_MS);
  purgeTimer.unref();
  app.addHook('onReady', async () => purge());
  const maintenance = startReadingsMaintenance(database, {
    defaultDays: config.readingsRetentionDays,
    log: app.log,
    schedule: options.readingsMaintenance !== false,
  });
  app.decorate('readingsMaintenance', maintenance);

  let silenceTimer: { stop(): Promise<void> } | null = null;
  let reminders: { stop(): Promise<void> } | null = null;
  let insightsDrain: { stop(): Promise<void> } | null = null;
  let searchCatchUp: { stop(): Promise<void> } | null = null;
  app.addHook('onReady', async () => {
    worker?.start();
    searchCatchUp = startSearchCatchUp(database, app.log);
    if (config.worker) silenceTimer = startSilenceTimer(database, app.log);
    if (config.worker) reminders = startReminders(database, records, app.log);
    if (config.worker) insightsDrain = startInsightsDrain(database, app.log);
    emails?.start();
  });

  // Scheduled backups (BACKUP_DIR); their code is loaded only when they are on.
  let backups: { stop(): Promise<void> } | null = null;
  if (config.backup !== null) {
    const { startBackupSchedule } = await import('./backup/schedule.js');
    const schedule = { ...config, backup: config.backup };
    app.addHook('onReady', async () => {
      backups = startBackupSchedule(schedule, database, app.log, metrics);
    });
  }

  // Several processes on PostgreSQL, each with photos on its own disk, share no photos: say so.
  let presence: { stop(): Promise<void> } | null = null;
  const storage = config.storage;
  if (config.database.dialect === 'postgres' && storage.kind === 'file') {
    const url = config.database.url;
    const { startStorePresence } = await import('./files/store-presence.js');
    app.addHook('onReady', async () => {
      presence = await startStorePresence(url, database, storage.root, (message, others) =>
        app.log.warn({ other_processes: others }, message),
      );
    });
  }

  app.addHook('onClose', async () => {
    // Writes still running (their client may have gone) finish before anything closes.
    await writesSettled(database);
    clearInterval(purgeTimer);
    await worker?.stop();
    await silenceTimer?.stop();
    await reminders?.stop();
    await insightsDrain?.stop();
    await searchCatchUp?.stop();
    await emails?.stop();
    await maintenance.stop();
    await backups?.stop();
    await presence?.stop();
    if (ownsRedis && redis !== null) redis.disconnect();
    blobs.close();
    if (ownsDatabase) await database.close();
  });
  return app;
}
