// The retention step: with the seeded readings (all older than last month) in place, set the
// bench workspace's retention to 30 days and have Vitro's server remove them (its readings
// upkeep, asked over IPC) while ingest runs at half of its measured capacity; ingest p99
// without and during the removal, how long the removal took and, on SQLite, its longest
// batch (the write lock's longest hold).
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase } from '../dist/db/database.js';
import { inTransaction } from '../dist/db/transaction.js';
import { setReadingsRetention } from '../dist/modules/readings/retention.service.js';
import { pacedLoad } from './load.mjs';
import { ms } from './report.mjs';

const RETENTION_DAYS = 30;

async function setRetention(target, workspaceId) {
  const database = openDatabase(
    target.dialect === 'sqlite'
      ? { dialect: 'sqlite', path: target.path, url: `sqlite:${target.path}` }
      : { dialect: 'postgres', url: target.url },
  );
  try {
    await inTransaction(database.db, (trx) =>
      setReadingsRetention(trx, workspaceId, RETENTION_DAYS, null, new Date().toISOString()),
    );
  } finally {
    await database.close();
  }
}

export async function retentionStep({ target, servers, seeded, ingestCase, ingestRps, options }) {
  const request = ingestCase.request(seeded);
  const rate = Math.max(1, Math.round(ingestRps / 2));
  const load = () =>
    pacedLoad(servers.vitro, request, {
      apiKey: seeded.apiKey,
      connections: options.connections,
      duration: options.duration,
      rate,
    });
  const quiet = await load();
  await setRetention(target, seeded.workspaceId);
  const started = Date.now();
  let finishedAt = null;
  const removal = servers.vitro.ask({ type: 'retention' }).then((result) => {
    finishedAt = Date.now();
    return result;
  });
  const during = await load();
  const run = await removal;
  // Not counted in `during` if it ended first: say how much of the window it covered.
  const removalSeconds = ((finishedAt ?? Date.now()) - started) / 1000;
  await sleep(500);
  return {
    rate,
    quiet,
    during,
    removalSeconds,
    run,
    retentionDays: RETENTION_DAYS,
    seededReadings: seeded.readings.count,
  };
}

export function describeRetention(dialect, r) {
  const retention = r.run?.retention;
  const how =
    retention === undefined
      ? 'another process held the upkeep lease: nothing removed'
      : dialect === 'postgres'
        ? `${retention.dropped.length} partitions dropped, ${retention.deleted.toLocaleString('en-US')} rows deleted`
        : `${retention.deleted.toLocaleString('en-US')} rows deleted in ${retention.batches.toLocaleString('en-US')} batches, the longest ${ms(retention.longestBatchMs)} (commits at most ${ms(retention.longestCommitMs)}), ${retention.batchesOver50Ms} over 50 ms`;
  return (
    `[${dialect}] retention (${r.retentionDays} days) removed the ${r.seededReadings.toLocaleString('en-US')} ` +
    `seeded readings in ${r.removalSeconds.toFixed(1)} s (${how}); ingest at half capacity ` +
    `(${r.rate} req/s): p99 ${ms(r.quiet.p99)} before, ${ms(r.during.p99)} during the ` +
    `${r.during.requests} requests of the ${Math.round(r.during.requests / r.rate)} s from its start`
  );
}
