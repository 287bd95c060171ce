// Baseline store on SQLite: better-sqlite3 statements prepared once, the same pragmas as Vitro.
import Database from 'better-sqlite3';
import { addDecimalTexts } from '../dist/lib/exact-sum.js';
import {
  insertReadingsSql,
  LATEST,
  READINGS_SQL,
  readingRows,
  readingValues,
  rollupRowsOf,
  rollupValues,
  sqliteUpsertRollupsSql,
} from './readings.mjs';
import { SUMMARY_SQL, withBucket } from './baseline-summary.mjs';
import {
  changeEventRows,
  createdEventRow,
  initialStageOf,
  newPlantRows,
} from './baseline-records.mjs';
import { FIELDS, SQL, updateExplantSql, valuesOf } from './baseline-sql.mjs';
import {
  countChanges,
  countsEvent,
  countsOf,
  startsLaterSubculture,
  newTransferRow,
  transferEvent,
} from './baseline-transfers.mjs';

export function openSqliteStore(path) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  // As Vitro registers it: rollup sums are exact decimal text.
  db.function('vitro_decimal_add', { deterministic: true }, (a, b) =>
    addDecimalTexts(String(a), String(b)),
  );
  const statements = Object.fromEntries(
    Object.entries(SQL).map(([name, text]) => [name, db.prepare(text)]),
  );
  const updates = new Map();
  const updateExplant = (fields) => {
    const key = fields.join();
    if (!updates.has(key)) updates.set(key, db.prepare(updateExplantSql(fields)));
    return updates.get(key);
  };

  /** Appends change events of one workspace: one sequence reservation, one last event time, the rows. */
  const recordEvents = (events) => {
    const workspaceId = events[0].workspace_id;
    const sequence = statements.nextEventSequence.get(events.length, workspaceId);
    const rows = changeEventRows(events, sequence);
    statements.setLastEventAt.run(rows.at(-1).created_at, workspaceId);
    for (const row of rows) statements.insertEvent.run(valuesOf(row, FIELDS.event));
  };

  const createPlant = db.transaction((key, species, now) => {
    const options = statements.stageOptions.all(key.workspace_id, 'plant');
    const rows = newPlantRows(key, species, initialStageOf(options), now);
    statements.insertPlant.run(valuesOf(rows.plant, FIELDS.plant));
    if (rows.stage !== null) statements.insertStage.run(valuesOf(rows.stage, FIELDS.stage));
    const sequence = statements.nextEventSequence.get(1, key.workspace_id);
    const event = createdEventRow(rows, sequence, now);
    statements.setLastEventAt.run(event.created_at, key.workspace_id);
    statements.insertEvent.run(valuesOf(event, FIELDS.event));
    return rows.plant;
  });

  const cached = new Map();
  const prepared = (text) => {
    let statement = cached.get(text);
    if (statement === undefined) {
      statement = db.prepare(text);
      cached.set(text, statement);
    }
    return statement;
  };
  const stampLastSeen = db.prepare(READINGS_SQL.stampLastSeen);
  const listReadings = db.prepare(READINGS_SQL.listByDevice);
  const rawSince = db.prepare(READINGS_SQL.rawSince);
  const rollupRows = db.prepare(SUMMARY_SQL.rollupRows);
  const rawReadings = db.prepare(SUMMARY_SQL.rawReadings);

  /** The checks and writes of Vitro's ingest: devices active, rows in, devices stamped. */
  const ingest = db.transaction((workspaceId, inputs, deviceIds, now) => {
    const found = prepared(READINGS_SQL.devicesIn(deviceIds.length)).all(workspaceId, ...deviceIds);
    if (found.length !== deviceIds.length) return { error: 'NOT_FOUND' };
    if (found.some((d) => d.status !== 'active')) return { error: 'DEVICE_INGEST_DISABLED' };
    const devices = new Map(found.map((d) => [d.id, d]));
    const rows = readingRows(inputs, devices, workspaceId, now);
    const stored = new Set(
      prepared(insertReadingsSql(rows.length))
        .all(readingValues(rows))
        .map((r) => r.id),
    );
    const accepted = rows.filter((row) => stored.has(row.id));
    const rollups = rollupRowsOf(accepted);
    if (rollups.length > 0) {
      prepared(sqliteUpsertRollupsSql(rollups.length)).run(rollupValues(rollups));
    }
    const before = new Date(Date.parse(now) - 1000).toISOString();
    for (const id of deviceIds) stampLastSeen.run(now, workspaceId, id, before);
    return { rows: accepted };
  });

  /** An explant transfer with its event and counts; undefined when the explant is not found. */
  const createExplantTransfer = db.transaction((key, body, now) => {
    const workspaceId = key.workspace_id;
    const explant = statements.findExplant.get(workspaceId, body.explant_id);
    if (explant === undefined) return undefined;
    const highest = statements.highestCycle.get(workspaceId, 'explant', body.explant_id, 1);
    const cycle = (highest === undefined ? 0 : highest.transfer_cycle) + 1;
    const row = newTransferRow(key, body, cycle, new Date().toISOString(), now);
    statements.insertTransfer.run(valuesOf(row, FIELDS.transfer));
    const events = [transferEvent(row)];
    // The explant read above (as the server's lock does) gives its counts and its subculture.
    const changes = countChanges(explant, countsOf(row));
    const fields = Object.keys(changes);
    const later = startsLaterSubculture(explant, row);
    if (fields.length > 0 || later) {
      const columns = [
        ...(fields.length > 0 ? [...fields, 'updated_at'] : []),
        ...(later ? ['subcultured_at'] : []),
      ];
      const values = [
        ...fields.map((field) => changes[field].to),
        ...(fields.length > 0 ? [now] : []),
        ...(later ? [row.transfer_date] : []),
      ];
      updateExplant(columns).run(...values, workspaceId, row.entity_id);
      if (fields.length > 0) events.push(countsEvent(row, changes, now));
    }
    recordEvents(events);
    return row;
  });

  return {
    ingestReadings: async (workspaceId, inputs, deviceIds, now) =>
      ingest.immediate(workspaceId, inputs, deviceIds, now),
    listReadings: async (workspaceId, deviceId, since, limit) =>
      listReadings.all(workspaceId, deviceId, since, LATEST, limit, 0),
    rawSince: async (workspaceId) => rawSince.get(workspaceId)?.raw_since ?? null,
    rollups: async (workspaceId, deviceId, span, from, to, bucket) =>
      withBucket(rollupRows.all(workspaceId, deviceId, span, from, to), bucket),
    rawReadings: async (workspaceId, deviceId, from, to) =>
      rawReadings.all(workspaceId, deviceId, from, to),
    findKeyForAuth: async (hash) => statements.keyForAuth.get(hash),
    touchKey: async (id, at) => {
      statements.touchKey.run(at, id);
    },
    findPlant: async (workspaceId, id) => statements.findPlant.get(workspaceId, id),
    listPlants: async (workspaceId, limit, offset) =>
      statements.listPlants.all(workspaceId, limit, offset),
    // BEGIN IMMEDIATE, as Vitro's write transactions on SQLite.
    createPlant: async (key, species, now) => createPlant.immediate(key, species, now),
    findExplant: async (workspaceId, id) => statements.findExplant.get(workspaceId, id),
    listTransfers: async (workspaceId, entityType, entityId, limit, offset) =>
      statements.listTransfers.all(workspaceId, entityType, entityId, limit, offset),
    createExplantTransfer: async (key, body, now) =>
      createExplantTransfer.immediate(key, body, now),
    close: async () => db.close(),
  };
}
