// Notifications' figures (issue 41), a focused bench outside the runner's cases:
// - fan-out: one sensor alert told to 200 people (every one following its room, half
//   with an email address, so half an outbox row too), the cost `notify` adds to the
//   write's transaction, timed from its start to its commit;
// - inbox: GET /api/v1/notifications (a page of 50, `?unread=true`, and a page after a
//   cursor) of one person holding 100,000 notifications, through the whole app
//   (authentication, rate limits, paging) with app.inject, sequentially.
// Goals: fan-out ≤ 100 ms, inbox p95 ≤ 20 ms. Reported, never asserted.
//
//   node bench/notifications.mjs                      # SQLite, a fresh .bench/notifications.db
//   BENCH_DATABASE_URL=postgres://… node bench/notifications.mjs
import console from 'node:console';
import process from 'node:process';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { ensureBuilt } from './build.mjs';

const ROOT = resolve(import.meta.dirname, '..');
ensureBuilt(ROOT, { build: !process.argv.includes('--no-build') });

const { buildApp } = await import('../dist/app.js');
const { loadConfig } = await import('../dist/config.js');
const { openDatabase } = await import('../dist/db/database.js');
const { migrateToLatest } = await import('../dist/db/migrate.js');
const { inTransaction } = await import('../dist/db/transaction.js');
const { newId } = await import('../dist/kernel/ids.js');
const { SCOPES } = await import('../dist/kernel/access.js');
const { addMember, createApiKey, createWorkspace } =
  await import('../dist/modules/identity/index.js');
const { notify } = await import('../dist/modules/notifications/index.js');
const { insertNotifications } =
  await import('../dist/modules/notifications/notifications.repository.js');

const PEOPLE = 200;
const FAN_OUT_ROUNDS = 50;
const INBOX_SIZE = 100_000;
const INBOX_REQUESTS = 500;

const dir = join(ROOT, '.bench');
mkdirSync(dir, { recursive: true });
const url = process.env.BENCH_DATABASE_URL ?? `sqlite:${join(dir, 'notifications.db')}`;
if (url.startsWith('sqlite:')) rmSync(url.slice('sqlite:'.length), { force: true });
const env = {
  DATABASE_URL: url,
  VITRO_DATA_DIR: dir,
  VITRO_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
  VITRO_WORKER: 'off',
  LOG_LEVEL: 'silent',
  VITRO_RATE_LIMIT_KEY_PER_MIN: '100000000',
  VITRO_RATE_LIMIT_WORKSPACE_PER_MIN: '100000000',
};
const config = loadConfig(env);
const database = openDatabase(config.database);
await migrateToLatest(database.db);

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
const summary = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  const f = (v) => `${v.toFixed(2)} ms`;
  return `p50 ${f(percentile(sorted, 0.5))}, p95 ${f(percentile(sorted, 0.95))}, max ${f(sorted.at(-1))}`;
};

// A lab of 200 people, one room.
const now = () => new Date().toISOString();
const lab = await inTransaction(database.db, async (trx) => {
  const workspace = await createWorkspace(trx, { name: 'Notifications bench', plan: 'teams' });
  const people = [];
  for (let i = 0; i < PEOPLE; i++) {
    people.push(
      await addMember(trx, {
        workspaceId: workspace.id,
        name: `Person ${i}`,
        role: i === 0 ? 'owner' : 'member',
        email: i % 2 === 0 ? `person${i}@bench.example` : null,
      }),
    );
  }
  const key = await createApiKey(trx, { memberId: people[0].id, scopes: SCOPES });
  return { workspaceId: workspace.id, people, key: key.key };
});
const roomId = newId();
await database.db
  .insertInto('rooms')
  .values({ id: roomId, workspace_id: lab.workspaceId, name: 'Growth room A', created_at: now() })
  .execute();

// Fan-out: one alert to everyone.
const fanOut = [];
let told = 0;
for (let round = 0; round < FAN_OUT_ROUNDS; round++) {
  const alertId = newId();
  let began = 0;
  await inTransaction(database.db, async (trx) => {
    began = performance.now();
    told = await notify(
      trx,
      lab.workspaceId,
      [
        {
          kind: 'alert_opened',
          eventKey: `alert_opened:${alertId}`,
          record: { type: 'sensor_alert', id: alertId, label: 'Room A too warm' },
          roomId,
          actorId: null,
          to: { room: roomId },
        },
      ],
      now(),
    );
  });
  fanOut.push(performance.now() - began);
}
console.log(
  `${config.database.dialect}: fan-out of one alert to ${told} people: ${summary(fanOut)} (goal ≤ 100 ms)`,
);

// Inbox: 100,000 notifications of the owner, a third unread, a minute apart.
const owner = lab.people[0].id;
const start = Date.now() - INBOX_SIZE * 60_000;
for (let from = 0; from < INBOX_SIZE; from += 10_000) {
  const rows = [];
  for (let i = from; i < Math.min(INBOX_SIZE, from + 10_000); i++) {
    const at = new Date(start + i * 60_000).toISOString();
    rows.push({
      id: newId(),
      workspace_id: lab.workspaceId,
      member_id: owner,
      kind: 'mention',
      event_key: `bench:${i}`,
      record_type: 'explant',
      record_id: newId(),
      record_label: `AN-B${i}`,
      room_id: null,
      comment_id: null,
      actor_id: lab.people[1].id,
      created_at: at,
      read_at: i % 3 === 0 ? null : at,
    });
  }
  await inTransaction(database.db, (trx) => insertNotifications(trx, rows));
}
if (config.database.dialect === 'postgres') await sql`analyze notifications`.execute(database.db);

const app = await buildApp(config, { database, logger: false, readingsMaintenance: false });
await app.ready();
const headers = { authorization: `Bearer ${lab.key}` };
const get = (path) => app.inject({ method: 'GET', url: path, headers });
const first = await get('/api/v1/notifications');
const cursor = first.json().meta.next_cursor;
for (const [name, path] of [
  ['newest 50', '/api/v1/notifications'],
  ['unread, newest 50', '/api/v1/notifications?unread=true'],
  ['the page after a cursor', `/api/v1/notifications?cursor=${encodeURIComponent(cursor)}`],
]) {
  for (let i = 0; i < 50; i++) await get(path);
  const times = [];
  for (let i = 0; i < INBOX_REQUESTS; i++) {
    const t0 = performance.now();
    const res = await get(path);
    times.push(performance.now() - t0);
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
  }
  console.log(
    `${config.database.dialect}: inbox of ${INBOX_SIZE} notifications, ${name}: ${summary(times)} (goal p95 ≤ 20 ms)`,
  );
}
await app.close();
await database.close();
