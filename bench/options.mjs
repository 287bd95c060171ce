// Command-line options of bench/run.mjs.
import { parseArgs } from 'node:util';
import { CASE_NAMES } from './cases.mjs';

export const HELP = `Usage: node bench/run.mjs [options]      (or: npm run bench -- [options])

Loads the real Vitro server (built code in dist/) and a bare Fastify baseline doing the
same SQL, alternately, with autocannon, and prints req/s, p50/p99 latency and the ratio
vitro/baseline per case. Writes .bench/results.json.

Options:
  --duration <s>      seconds per measured run (default 5)
  --rounds <n>        measured runs per server and case; medians are reported (default 3)
  --warmup <s>        unmeasured seconds per server and case before the rounds (default 2)
  --connections <n>   autocannon connections (default 10)
  --cases <list>      comma-separated, of: ${CASE_NAMES.join(', ')} (default all)
  --databases <list>  sqlite and/or postgres (default sqlite, plus postgres when
                      BENCH_DATABASE_URL is set)
  --plants <n>        plants seeded into the bench workspace (default 100000)
  --readings <n>      sensor readings seeded over 100 devices, for the readings, summary and
                      ingest cases (default 10000000; seeded only when one of them runs)
  --endpoints <n>     webhook endpoints subscribed to every event, at a fast receiver in
                      the runner (default 0); prints deliveries and their latency
  --alert-rules <n>   sensor alert rules on the ingest's devices and rooms (default 0)
  --drain <n>         with --endpoints: also write n events at once and time how fast
                      Vitro delivers them to the receiver (deliveries/s; default 0)
  --node-flags <f>    flags for both server processes, e.g. "--max-semi-space-size=32"
  --retention         after the cases, remove the seeded readings (a 30-day retention) while
                      ingest runs at half capacity: ingest p99 before and during, removal time
                      (needs the ingest case; the seeded readings are gone afterwards)
  --profile           --cpu-prof both servers; profiles go to .bench/profiles/
  --no-build          do not rebuild dist/ when src/ is newer (only warn)
  -h, --help          this text

Environment:
  BENCH_DATABASE_URL  postgres://… of a database the bench may write to: it migrates it
                      and adds a workspace with the seeded records on every run.

Budgets (vitro/baseline req/s): me ≥ 0.75, plant ≥ 0.8, plants ≥ 0.8, create ≥ 0.7,
transfers ≥ 0.8, transfer-create ≥ 0.7, readings ≥ 0.8 (and p99 < 50 ms at half capacity),
summary and summary-day ≥ 0.8 (and p99 ≤ 50 ms at half capacity), ingest ≥ 0.8 (and
≥ 40,000 readings/s on SQLite, 80,000 on PostgreSQL; on PostgreSQL ≥ 0.8 of pgbench
inserting the same batches).
`;

function positive(name, raw) {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`--${name} must be a whole number ≥ 1, got "${raw}"`);
  }
  return value;
}

const list = (raw) =>
  raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

export function readOptions(argv, env) {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string', default: '5' },
      rounds: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '10' },
      cases: { type: 'string', default: CASE_NAMES.join(',') },
      databases: { type: 'string' },
      plants: { type: 'string', default: '100000' },
      readings: { type: 'string', default: '10000000' },
      endpoints: { type: 'string', default: '0' },
      'alert-rules': { type: 'string', default: '0' },
      drain: { type: 'string', default: '0' },
      'node-flags': { type: 'string', default: '' },
      profile: { type: 'boolean', default: false },
      retention: { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  const postgresUrl = env.BENCH_DATABASE_URL ?? null;
  const databases = list(values.databases ?? (postgresUrl ? 'sqlite,postgres' : 'sqlite'));
  for (const name of databases) {
    if (name !== 'sqlite' && name !== 'postgres') {
      throw new Error(`--databases takes sqlite and/or postgres, got "${name}"`);
    }
  }
  if (databases.includes('postgres') && !/^postgres(ql)?:\/\//.test(postgresUrl ?? '')) {
    throw new Error('the postgres variant needs BENCH_DATABASE_URL=postgres://…');
  }
  return {
    help: values.help,
    duration: positive('duration', values.duration),
    rounds: positive('rounds', values.rounds),
    warmup: values.warmup === '0' ? 0 : positive('warmup', values.warmup),
    connections: positive('connections', values.connections),
    cases: list(values.cases),
    databases,
    postgresUrl,
    plants: positive('plants', values.plants),
    readings: positive('readings', values.readings),
    endpoints: values.endpoints === '0' ? 0 : positive('endpoints', values.endpoints),
    alertRules: values['alert-rules'] === '0' ? 0 : positive('alert-rules', values['alert-rules']),
    drain: values.drain === '0' ? 0 : positive('drain', values.drain),
    nodeFlags: list(values['node-flags'].replace(/\s+/g, ',')),
    profile: values.profile,
    retention: values.retention,
    build: !values['no-build'],
  };
}
