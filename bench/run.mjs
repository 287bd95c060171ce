// The bench: see bench/README.md and `node bench/run.mjs --help`.
import console from 'node:console';
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL, fileURLToPath } from 'node:url';
import { ensureBuilt } from './build.mjs';
import { selectCases } from './cases.mjs';
import { loadServer, pacedLoad } from './load.mjs';
import { HELP, readOptions } from './options.mjs';
import { caseResult, formatExtras, formatTable, median, ms, writeSummary } from './report.mjs';
import { pgbenchIngest } from './pgbench.mjs';
import { describeRetention, retentionStep } from './retention.mjs';
import { startServer } from './servers.mjs';
import { describeStorage, storageFigures } from './storage.mjs';
import { verifyCases } from './verify.mjs';
import {
  addAlertRules,
  measureDrain,
  settleDeliveries,
  startReceiver,
  subscribeEndpoints,
  probeWhile,
} from './webhooks.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, '.bench');
const HUGE_RATE_LIMIT = '1000000000';
const SETTLE_MS = 500;
const NOISY_CORES = 0.25;

function serverEnv(target, secret, webhooks) {
  const env = { ...process.env };
  // The bench measures the single-process setup: in-process rate limits, no Redis.
  delete env.REDIS_URL;
  return {
    ...env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: target.dialect === 'sqlite' ? `sqlite:${target.path}` : target.url,
    VITRO_SECRET: secret,
    VITRO_DATA_DIR: join(OUT, 'data'),
    VITRO_RATE_LIMIT_KEY_PER_MIN: HUGE_RATE_LIMIT,
    VITRO_RATE_LIMIT_WORKSPACE_PER_MIN: HUGE_RATE_LIMIT,
    VITRO_RATE_LIMIT_READINGS_KEY_PER_5MIN: HUGE_RATE_LIMIT,
    VITRO_RATE_LIMIT_READINGS_WORKSPACE_PER_5MIN: HUGE_RATE_LIMIT,
    // The bench's webhook receiver listens on loopback, as a lab's own server would.
    ...(webhooks ? { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } : {}),
  };
}

async function startServers(target, execArgv, webhooks) {
  const env = serverEnv(target, randomBytes(32).toString('base64url'), webhooks);
  const start = (name) =>
    startServer({ name, script: join(ROOT, 'bench', `${name}-server.mjs`), env, execArgv });
  const baseline = await start('baseline');
  try {
    return { baseline, vitro: await start('vitro') };
  } catch (error) {
    await baseline.stop();
    throw error;
  }
}

const describeRun = (m) =>
  `${Math.round(m.rps).toLocaleString('en-US').padStart(7)} req/s  p50 ${ms(m.p50)}  p99 ${ms(m.p99)}` +
  (m.cpuMs === null ? '' : `  cpu ${ms(m.cpuMs)}/req`) +
  (m.otherCores === null ? '' : `  (other processes: ${m.otherCores.toFixed(2)} cores)`);

const describeSeed = (plants, transfers, readings) =>
  `${plants.toLocaleString('en-US')} plants` +
  (transfers ? ', 1,000 explants with 100,000 transfers' : '') +
  (readings > 0 ? `, ${readings.toLocaleString('en-US')} readings` : '');

/** Warm-up, then rounds alternating which server goes first (ABBA), so drift hits both alike. */
async function measureCase(benchCase, servers, seeded, options, nameWidth, receiver) {
  const request = benchCase.request(seeded);
  const elsewhere = Boolean(receiver) && benchCase.baselineElsewhere === true;
  const load = async (name, duration) => {
    const measured = await loadServer(servers[name], request, {
      apiKey: name === 'baseline' && elsewhere ? seeded.quietApiKey : seeded.apiKey,
      connections: options.connections,
      duration,
    });
    await sleep(SETTLE_MS);
    return measured;
  };
  if (options.warmup > 0) {
    await load('baseline', options.warmup);
    await load('vitro', options.warmup);
  }
  const rounds = { baseline: [], vitro: [] };
  const deliveries = [];
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? ['baseline', 'vitro'] : ['vitro', 'baseline'];
    for (const name of order) {
      // Vitro's worker delivers the baseline's events too (same workspace): every run
      // starts once the last one's are delivered, and only Vitro's rounds are timed,
      // each with every one of its events, the ones delivered after the load ended too.
      if (receiver) await settleDeliveries(receiver);
      await receiver?.take();
      const loading = load(name, options.duration);
      // Plants created besides the load, their deliveries timed from their answers.
      const probing =
        receiver && name === 'vitro' && benchCase.probesDeliveries === true
          ? probeWhile(servers.vitro, seeded.apiKey, request, loading)
          : Promise.resolve([]);
      const measured = await loading;
      const probes = await probing;
      rounds[name].push(measured);
      const settled = receiver ? await settleDeliveries(receiver) : 0;
      const delivered = await receiver?.take(probes);
      if (name === 'vitro' && delivered) deliveries.push(delivered);
      console.log(
        `  ${benchCase.name.padEnd(nameWidth)} round ${round + 1}/${options.rounds}  ${name.padEnd(8)} ${describeRun(measured)}` +
          (delivered && delivered.deliveries > 0
            ? `  webhooks ${delivered.deliveries} delivered, event→delivery p50 ${delivered.p50} ms p99 ${delivered.p99} ms` +
              (delivered.probes.deliveries > 0
                ? `, answer→delivery p50 ${delivered.probes.p50} ms p99 ${delivered.probes.p99} ms (${delivered.probes.deliveries} of probes)`
                : '') +
              ` (the last ${settled.toFixed(1)} s after the load)`
            : ''),
      );
    }
  }
  const result = caseResult(benchCase, rounds);
  if (deliveries.length > 0) result.webhooks = deliveries;
  if (benchCase.halfCapacityP99 !== undefined) {
    // Latency at half of the throughput Vitro just showed, as a server is run in practice.
    const rate = Math.max(1, Math.round(result.vitro.rps / 2));
    const measured = await pacedLoad(servers.vitro, request, {
      apiKey: seeded.apiKey,
      connections: options.connections,
      duration: options.duration,
      rate,
    });
    console.log(
      `  ${benchCase.name.padEnd(7)} half capacity (${rate} req/s)  vitro ${describeRun(measured)}`,
    );
    result.halfCapacity = { rate, ...measured, goalP99: benchCase.halfCapacityP99 };
  }
  return result;
}

/** A warning line when other processes competed for the CPU during the measured runs. */
function describeNoise(dialect, results) {
  const loads = results
    .flatMap((r) => [...r.baseline.rounds, ...r.vitro.rounds])
    .map((m) => m.otherCores)
    .filter((load) => load !== null);
  if (loads.length === 0) return '';
  const worst = Math.max(...loads);
  if (worst < NOISY_CORES) return '';
  return (
    `note: other processes${dialect === 'postgres' ? ' (PostgreSQL included)' : ''} used up to ` +
    `${worst.toFixed(2)} of ${cpus().length} cores during ` +
    `measured runs (median ${median(loads).toFixed(2)}); compare rounds in .bench/results.json\n`
  );
}

async function benchDatabase(dialect, cases, options, execArgv) {
  const { seed } = await import('./seed.mjs');
  const target =
    dialect === 'sqlite'
      ? { dialect, path: join(OUT, 'bench.db') }
      : { dialect, url: options.postgresUrl };
  const readings = cases.some((c) => c.needsReadings) ? options.readings : 0;
  const transfers = cases.some((c) => c.transfers);
  console.log(`[${dialect}] seeding ${describeSeed(options.plants, transfers, readings)}…`);
  const seededAt = Date.now();
  const seeded = await seed(target, { plants: options.plants, readings, transfers });
  console.log(`[${dialect}] seeded in ${((Date.now() - seededAt) / 1000).toFixed(1)} s`);
  const storage = readings > 0 ? await storageFigures(target) : null;
  if (storage !== null) console.log(describeStorage(dialect, storage));

  const receiver = options.endpoints > 0 ? await startReceiver() : null;
  const servers = await startServers(target, execArgv, receiver !== null);
  const results = [];
  let drain = null;
  let pgbench = null;
  let retention = null;
  try {
    await verifyCases(cases, [servers.baseline, servers.vitro], seeded, target);
    if (receiver !== null) {
      await subscribeEndpoints(servers.vitro, seeded.apiKey, receiver, options.endpoints);
      console.log(
        `[${dialect}] ${options.endpoints} webhook endpoints subscribed at ${receiver.url}`,
      );
    }
    if (options.alertRules > 0 && seeded.readings !== null) {
      await addAlertRules(servers.vitro, seeded.apiKey, seeded.readings, options.alertRules);
      console.log(
        `[${dialect}] ${options.alertRules} alert rules on the ingest's rooms and devices`,
      );
    }
    console.log(`[${dialect}] both servers answer every case alike; loading…`);
    const nameWidth = Math.max(...cases.map((c) => c.name.length));
    for (const c of cases) {
      results.push(await measureCase(c, servers, seeded, options, nameWidth, receiver));
    }
    if (receiver !== null && options.drain > 0) {
      const drained = await measureDrain(
        target,
        seeded,
        receiver,
        options.drain,
        options.endpoints,
      );
      console.log(
        `  drain: ${options.drain} events to ${options.endpoints + 1} endpoints, ` +
          `${drained.deliveries} deliveries at ` +
          `${Math.round(drained.perSecond ?? 0).toLocaleString('en-US')} deliveries/s`,
      );
      drain = drained;
    }
    const ingest = results.find((r) => r.name === 'ingest');
    if (dialect === 'postgres' && ingest !== undefined) {
      // What PostgreSQL alone does with the same batches, same machine, same run.
      pgbench = await pgbenchIngest(options.postgresUrl, seeded.workspaceId, {
        duration: options.duration * options.rounds,
        clients: options.connections,
        dir: OUT,
      });
      if (pgbench === null)
        console.log(`[${dialect}] pgbench not found: no PostgreSQL-alone figure`);
      else pgbench.vitroReadingsPerSecond = ingest.vitro.rps * ingest.itemsPerRequest;
    }
    if (options.retention && ingest !== undefined && readings > 0) {
      retention = await retentionStep({
        target,
        servers,
        seeded,
        ingestCase: cases.find((c) => c.name === 'ingest'),
        ingestRps: ingest.vitro.rps,
        options,
      });
    }
  } finally {
    await Promise.all([servers.baseline.stop(), servers.vitro.stop()]);
    await receiver?.close();
  }
  const title =
    `\n${dialect}: ${describeSeed(options.plants, transfers, readings)}, ${options.connections} connections, ` +
    `median of ${options.rounds} × ${options.duration} s per server`;
  console.log(
    `${formatTable(title, results)}\n${formatExtras(results)}${describeNoise(dialect, results)}`,
  );
  if (storage !== null) console.log(describeStorage(dialect, storage));
  if (pgbench !== null) console.log(describePgbench(dialect, pgbench));
  if (retention !== null) console.log(describeRetention(dialect, retention));
  return {
    dialect,
    results,
    storage,
    pgbench,
    retention,
    ...(drain === null ? {} : { webhookDrain: drain }),
  };
}

function describePgbench(dialect, p) {
  const rate = (value) => Math.round(value).toLocaleString('en-US');
  const vitro = p.vitroReadingsPerSecond;
  return Object.entries(p)
    .filter(([name]) => name !== 'vitroReadingsPerSecond')
    .map(
      ([name, figures]) =>
        `[${dialect}] pgbench ${name}: ${rate(figures.readingsPerSecond)} readings/s; vitro ingest ` +
        `${rate(vitro)} readings/s = ${(vitro / figures.readingsPerSecond).toFixed(2)} of it (goal ≥ 0.8 of insert)`,
    )
    .join('\n');
}

async function main() {
  let options;
  try {
    options = readOptions(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`${error.message}\n\n${HELP}`);
    process.exitCode = 2;
    return;
  }
  if (options.help) {
    console.log(HELP);
    return;
  }
  const cases = selectCases(options.cases);
  if (options.retention && !cases.some((c) => c.name === 'ingest')) {
    console.error(
      '--retention measures ingest during removal: add the ingest case (--cases …,ingest)',
    );
    process.exitCode = 2;
    return;
  }
  ensureBuilt(ROOT, options);
  const profileDir = join(OUT, 'profiles');
  const execArgv = [
    ...options.nodeFlags,
    ...(options.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
  ];

  const summary = {
    startedAt: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? null,
    options: { ...options, postgresUrl: options.postgresUrl === null ? null : '(set)' },
    serverNodeFlags: execArgv,
    databases: [],
  };
  for (const dialect of options.databases) {
    summary.databases.push(await benchDatabase(dialect, cases, options, execArgv));
  }
  summary.finishedAt = new Date().toISOString();
  const file = join(OUT, 'results.json');
  writeSummary(file, summary);
  console.log(`summary written to ${file}`);
  if (options.profile) console.log(`CPU profiles in ${profileDir}`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
