// Baseline store on PostgreSQL: a pg pool of the size Vitro uses, the same parameterised SQL.
import pg from 'pg';
import { timestamptzToIso } from '../dist/db/pg-timestamps.js';
import {
  LATEST,
  PG_INSERT_READINGS,
  PG_UPSERT_ROLLUPS,
  READINGS_SQL,
  readingColumns,
  readingRows,
  rollupColumns,
  rollupRowsOf,
} from './readings.mjs';
import { SUMMARY_SQL } from './baseline-summary.mjs';
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

const INT8_OID = 20;
const NUMERIC_OID = 1700;
const TIMESTAMPTZ_OID = 1184;

/** `?` placeholders as `$1, $2, …`. */
function numbered(text) {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

const PG_SQL = Object.fromEntries(
  Object.entries({ ...SQL, lockExplant: `${SQL.findExplant} for no key update` }).map(
    ([name, text]) => [name, numbered(text)],
  ),
);

/**
 * `client.query(text, values)` through pg's callback form, as `pool.query` does and as
 * Vitro's pool client does (its promise form keeps answers alive through young-generation
 * collections; see README).
 */
const ask = (client, text, values) =>
  new Promise((resolve, reject) =>
    client.query(text, values, (error, result) => (error ? reject(error) : resolve(result))),
  );

export function openPgStore(url) {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    types: {
      // As Vitro's pool: int8 as numbers, numeric as exact text, times as ISO UTC text.
      getTypeParser: (oid, format) =>
        oid === INT8_OID
          ? (value) => Number(value)
          : oid === NUMERIC_OID
            ? (value) => value
            : oid === TIMESTAMPTZ_OID
              ? timestamptzToIso
              : pg.types.getTypeParser(oid, format),
    },
  });
  const first = async (name, values) => (await pool.query(PG_SQL[name], values)).rows[0];

  /** Runs `work(run)` in a transaction on one pooled client; `run(name, values)` → rows. */
  const inTransaction = async (work) => {
    const client = await pool.connect();
    const run = async (name, values) => (await ask(client, PG_SQL[name] ?? name, values)).rows;
    try {
      await ask(client, 'begin');
      const result = await work(run);
      await ask(client, 'commit');
      return result;
    } catch (error) {
      await ask(client, 'rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };

  const ingestReadings = async (workspaceId, inputs, deviceIds, now) => {
    const client = await pool.connect();
    try {
      await ask(client, 'begin');
      const found = (
        await ask(client, numbered(READINGS_SQL.devicesIn(deviceIds.length)), [
          workspaceId,
          ...deviceIds,
        ])
      ).rows;
      let result;
      if (found.length !== deviceIds.length) result = { error: 'NOT_FOUND' };
      else if (found.some((d) => d.status !== 'active'))
        result = { error: 'DEVICE_INGEST_DISABLED' };
      else {
        const devices = new Map(found.map((d) => [d.id, d]));
        const rows = readingRows(inputs, devices, workspaceId, now);
        const inserted = await ask(client, PG_INSERT_READINGS, readingColumns(rows));
        const stored = new Set(inserted.rows.map((r) => r.id));
        const accepted = rows.filter((row) => stored.has(row.id));
        const rollups = rollupRowsOf(accepted);
        if (rollups.length > 0) await ask(client, PG_UPSERT_ROLLUPS, rollupColumns(rollups));
        const before = new Date(Date.parse(now) - 1000).toISOString();
        for (const id of deviceIds) {
          await ask(client, numbered(READINGS_SQL.stampLastSeen), [now, workspaceId, id, before]);
        }
        result = { rows: accepted };
      }
      await ask(client, 'commit');
      return result;
    } catch (error) {
      await ask(client, 'rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };

  /** Appends change events of one workspace: one sequence reservation, one last event time, the rows. */
  const recordEvents = async (run, events) => {
    const workspaceId = events[0].workspace_id;
    const [sequence] = await run('nextEventSequence', [events.length, workspaceId]);
    const rows = changeEventRows(events, sequence);
    await run('setLastEventAt', [rows.at(-1).created_at, workspaceId]);
    for (const row of rows) await run('insertEvent', valuesOf(row, FIELDS.event));
  };

  const createPlant = (key, species, now) =>
    inTransaction(async (run) => {
      const options = await run('stageOptions', [key.workspace_id, 'plant']);
      const rows = newPlantRows(key, species, initialStageOf(options), now);
      await run('insertPlant', valuesOf(rows.plant, FIELDS.plant));
      if (rows.stage !== null) await run('insertStage', valuesOf(rows.stage, FIELDS.stage));
      const [sequence] = await run('nextEventSequence', [1, key.workspace_id]);
      const event = createdEventRow(rows, sequence, now);
      await run('setLastEventAt', [event.created_at, key.workspace_id]);
      await run('insertEvent', valuesOf(event, FIELDS.event));
      return rows.plant;
    });

  const createExplantTransfer = (key, body, now) =>
    inTransaction(async (run) => {
      const workspaceId = key.workspace_id;
      const [explant] = await run('lockExplant', [workspaceId, body.explant_id]);
      if (explant === undefined) return undefined;
      const [highest] = await run('highestCycle', [workspaceId, 'explant', body.explant_id, 1]);
      const cycle = (highest === undefined ? 0 : highest.transfer_cycle) + 1;
      const row = newTransferRow(key, body, cycle, new Date().toISOString(), now);
      await run('insertTransfer', valuesOf(row, FIELDS.transfer));
      const events = [transferEvent(row)];
      // The explant locked above gives its counts and its subculture.
      const changes = countChanges(explant, countsOf(row));
      const fields = Object.keys(changes);
      const later = startsLaterSubculture(explant, row);
      if (fields.length > 0 || later) {
        const columns = [
          ...(fields.length > 0 ? [...fields, 'updated_at'] : []),
          ...(later ? ['subcultured_at'] : []),
        ];
        await run(numbered(updateExplantSql(columns)), [
          ...fields.map((field) => changes[field].to),
          ...(fields.length > 0 ? [now] : []),
          ...(later ? [row.transfer_date] : []),
          workspaceId,
          row.entity_id,
        ]);
        if (fields.length > 0) events.push(countsEvent(row, changes, now));
      }
      await recordEvents(run, events);
      return row;
    });

  return {
    ingestReadings,
    listReadings: async (workspaceId, deviceId, since, limit) =>
      (
        await pool.query(numbered(READINGS_SQL.listByDevice), [
          workspaceId,
          deviceId,
          since,
          LATEST,
          limit,
          0,
        ])
      ).rows,
    rawSince: async (workspaceId) =>
      (await pool.query(numbered(READINGS_SQL.rawSince), [workspaceId])).rows[0]?.raw_since ?? null,
    rollups: async (workspaceId, deviceId, span, from, to, bucket) =>
      (
        await pool.query(numbered(SUMMARY_SQL.rollupGroups), [
          bucket,
          bucket,
          bucket,
          workspaceId,
          deviceId,
          span,
          from,
          to,
        ])
      ).rows,
    rawReadings: async (workspaceId, deviceId, from, to) =>
      (await pool.query(numbered(SUMMARY_SQL.rawReadings), [workspaceId, deviceId, from, to])).rows,
    findKeyForAuth: (hash) => first('keyForAuth', [hash]),
    touchKey: async (id, at) => {
      await pool.query(PG_SQL.touchKey, [at, id]);
    },
    findPlant: (workspaceId, id) => first('findPlant', [workspaceId, id]),
    listPlants: async (workspaceId, limit, offset) =>
      (await pool.query(PG_SQL.listPlants, [workspaceId, limit, offset])).rows,
    createPlant,
    findExplant: (workspaceId, id) => first('findExplant', [workspaceId, id]),
    listTransfers: async (workspaceId, entityType, entityId, limit, offset) =>
      (await pool.query(PG_SQL.listTransfers, [workspaceId, entityType, entityId, limit, offset]))
        .rows,
    createExplantTransfer,
    close: () => pool.end(),
  };
}
