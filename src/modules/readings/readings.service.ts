import { hash } from 'node:crypto';
import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { AppError, errors } from '../../kernel/errors.js';
import { timeOrTimestamp, toUtc } from '../../kernel/formats.js';
import { CANONICAL_UTC } from '../../kernel/time.js';
import { newId } from '../../kernel/ids.js';
import type { PageRequest } from '../../db/pages.js';
import type { ListResult } from '../../kernel/routes/index.js';
import type { Principal } from '../../kernel/principal.js';
import { markDeviceSeen, requireDevices } from '../devices/index.js';
import { requireRoom } from '../lab/index.js';
import {
  EARLIEST,
  findReading,
  insertReadings,
  LATEST,
  listReadingPage,
  newestReadingTime,
  recentRoomReadings,
  type ReadingRow,
} from './readings.repository.js';
import { findRawSince } from './retention.repository.js';
import { addToRollups } from './rollups.repository.js';
import { rollupRowsOf } from './rollups.js';
import type {
  CreateReadingsBody,
  CreateReadingsMeta,
  ReadingInput,
  ReadingQuery,
  SensorReading,
} from './readings.schemas.js';
import { notesKeeping, readingTypeOf } from './reading-aliases.js';
import { outOfRange } from './plausible.js';

export type SensorReadingRecord = Static<typeof SensorReading>;
type CreateReadingsResult = {
  data: SensorReadingRecord | SensorReadingRecord[];
  meta?: Static<typeof CreateReadingsMeta>;
};

export function presentReading(row: ReadingRow): SensorReadingRecord {
  return {
    id: row.id,
    device_id: row.device_id,
    team_id: row.workspace_id,
    room_id: row.room_id,
    type: row.type,
    value: row.value,
    unit: row.unit,
    recorded_at: row.recorded_at,
    notes: row.notes,
    created_at: row.created_at,
    external_id: row.external_id,
  };
}

/** The first hex digit of byte 8 once its two high bits are 10, by its two low bits. */
const VARIANT = '89ab';

/**
 * The id of a reading sent with an external id: a UUID (version 8) from a SHA-256
 * of its device, external id and time. A repeat gets the same id, so it meets the
 * stored reading on the primary key (workspace_id, device_id, recorded_at, id) and is skipped.
 */
export function readingIdOf(deviceId: string, externalId: string, recordedAt: string): string {
  // The first 16 bytes of the digest, as hex, with the version (byte 6's high nibble: 8)
  // and the variant (byte 8's two high bits: 10) set. One call, no Hash object: 500 of
  // these per batch showed in the ingest's profile.
  const hex = hash('sha256', `${deviceId}\n${recordedAt}\n${externalId}`, 'hex');
  const variant = VARIANT[Number.parseInt(hex[16]!, 16) & 0x3]!;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * What else happens to the readings a batch stored, in its transaction: the alert
 * rules judge them (wired in modules/index.ts, so readings know nothing of alerts).
 */
export type StoredReadingsHook = (
  trx: Trx,
  workspaceId: string,
  stored: readonly ReadingRow[],
  now: string,
) => Promise<void>;

/** How many readings a body carries: what the readings budgets count. */
export function readingsIn(body: Static<typeof CreateReadingsBody>): number {
  return 'readings' in body ? body.readings.length : 1;
}

const distinct = <T>(values: Iterable<T>): T[] => [...new Set(values)];

/**
 * A `recorded_at` that passed validation, as ISO UTC with milliseconds. A value in
 * that form already (validation checked the date is real) is kept as sent: parsing
 * 500 timestamps again per batch is a visible part of the ingest's time.
 */
const recordedAtOf = (value: string): string => (CANONICAL_UTC.test(value) ? value : toUtc(value));

/**
 * Whether a canonical time is one a reading may carry: years 1 to 9999 (UTC), what
 * PostgreSQL's timestamptz holds and four-digit ISO years write. JavaScript writes
 * other years `-000001-…` or `+010000-…`, which sort before `0001` as text.
 */
export const isReadingTime = (iso: string): boolean => iso >= EARLIEST && iso <= LATEST;

/** A since/until bound within the times readings may carry (a filter past them changes nothing). */
export function boundOf(iso: string): string {
  if (iso.startsWith('+')) return LATEST;
  if (iso < EARLIEST) return EARLIEST;
  return iso > LATEST ? LATEST : iso;
}

/**
 * POST /sensor-readings: one reading or a batch, all or nothing. Every check comes
 * first (recorded_at with external_id, the devices, their status, the rooms); then
 * one insert stores the readings not stored before. A reading is a repeat when its
 * device, external_id and recorded_at are those of a stored one (or of an earlier one
 * in the batch): a batch answers only the readings it stored; a single repeat answers
 * the stored reading with `meta.duplicate`.
 */
export async function ingestReadings(
  trx: Trx,
  principal: Principal,
  body: Static<typeof CreateReadingsBody>,
  now: string,
  afterStore: StoredReadingsHook | null = null,
): Promise<CreateReadingsResult> {
  const single = !('readings' in body);
  const inputs: readonly ReadingInput[] = 'readings' in body ? body.readings : [body];
  const at = (i: number) => (single ? '' : `readings[${i}].`);
  const times = inputs.map((reading, i) => {
    const time = timeOrTimestamp(
      { name: 'recorded_at', value: reading.recorded_at },
      reading.timestamp,
      at(i),
    );
    if (reading.external_id !== undefined && time === undefined) {
      throw errors.validation(`${at(i)}recorded_at: is required when external_id is sent`);
    }
    return time;
  });

  const workspaceId = principal.workspaceId;
  const devices = await requireDevices(trx, principal, distinct(inputs.map((r) => r.device_id)), {
    holdStatus: true,
  });
  for (const device of devices.values()) {
    if (device.status !== 'active') {
      throw new AppError(
        'DEVICE_INGEST_DISABLED',
        `Device ${device.id} is ${device.status}: its readings are refused; nothing was stored`,
      );
    }
  }
  for (const roomId of distinct(
    inputs.flatMap((r) => (r.room_id === undefined ? [] : [r.room_id])),
  )) {
    await requireRoom(trx, workspaceId, roomId);
  }

  const rows: ReadingRow[] = [];
  const ids = new Set<string>();
  inputs.forEach((reading, i) => {
    const time = times[i];
    const recordedAt = time === undefined ? now : recordedAtOf(time);
    if (!isReadingTime(recordedAt)) {
      throw errors.validation(`${at(i)}recorded_at: must be within the years 0001 to 9999 (UTC)`);
    }
    const { type, keptName } = readingTypeOf(reading.type);
    const deviceId = reading.device_id;
    const externalId = reading.external_id ?? null;
    const id = externalId === null ? newId() : readingIdOf(deviceId, externalId, recordedAt);
    if (ids.has(id)) return;
    ids.add(id);
    rows.push({
      device_id: deviceId,
      recorded_at: recordedAt,
      id,
      workspace_id: workspaceId,
      room_id: reading.room_id ?? devices.get(deviceId)!.room_id,
      type,
      value: reading.value,
      unit: reading.unit,
      notes: notesKeeping(keptName, reading.notes ?? null),
      external_id: externalId,
      created_at: now,
    });
  });
  const stored = await insertReadings(trx, rows);
  // The batch is accepted: what follows sees exactly the readings stored (repeats left out).
  const accepted = stored.size === rows.length ? rows : rows.filter((row) => stored.has(row.id));
  await addToRollups(trx, rollupRowsOf(accepted));
  for (const deviceId of devices.keys()) await markDeviceSeen(trx, workspaceId, deviceId, now);
  await afterStore?.(
    trx,
    workspaceId,
    rows.filter((row) => stored.has(row.id)),
    now,
  );

  if (!single) return { data: accepted.map(presentReading) };
  const row = rows[0]!;
  if (stored.has(row.id)) return { data: presentReading(row) };
  const existing = await findReading(trx, workspaceId, row);
  if (existing === undefined) throw new Error('a skipped reading is not stored');
  return { data: presentReading(existing), meta: { duplicate: true } };
}

/** GET /sensor-readings: the workspace's readings, newest first by `recorded_at`. */
export async function listReadings(
  db: Db,
  workspaceId: string,
  query: Static<typeof ReadingQuery>,
  page: PageRequest,
): Promise<ListResult<SensorReadingRecord>> {
  const since = query.since === undefined ? undefined : boundOf(toUtc(query.since));
  const until = query.until === undefined ? undefined : boundOf(toUtc(query.until));
  if (since !== undefined && until !== undefined && until < since) {
    throw errors.validation('until: must not be earlier than since');
  }
  const { items, nextKey } = await listReadingPage(
    db,
    workspaceId,
    {
      ...(query.device_id === undefined ? {} : { deviceId: query.device_id }),
      ...(query.room_id === undefined ? {} : { roomId: query.room_id }),
      ...(query.type === undefined ? {} : { type: query.type }),
      ...(since === undefined ? {} : { since }),
      ...(until === undefined ? {} : { until }),
    },
    page,
  );
  const rawSince = await findRawSince(db, workspaceId);
  return {
    items: items.map(presentReading),
    nextKey,
    ...(rawSince === null ? {} : { meta: { raw_since: rawSince } }),
  };
}

export { READING_TYPES } from './readings.schemas.js';

/** When the newest reading of a type was taken on a device or in a room (alert timers). */
export function newestReadingAt(
  db: Db,
  workspaceId: string,
  of: { readonly type: string; readonly deviceId: string | null; readonly roomId: string | null },
): Promise<string | null> {
  return newestReadingTime(db, workspaceId, of);
}

/** How many of a room's newest readings its summary looks through for each type's latest. */
export const ROOM_SUMMARY_READINGS = 500;

/** The newest reading of each type in a room, by type name. */
export interface LatestReading {
  type: string;
  value: number;
  unit: string;
  recorded_at: string;
  device_id: string;
  /** Outside what a sensor of its type can report (PLAUSIBLE_RANGES): stored, flagged. */
  out_of_range: boolean;
}

/**
 * The latest value of each sensor type in a room, among its newest
 * ROOM_SUMMARY_READINGS readings: one bounded index range, whatever the history
 * holds; a type silent for longer than that window is left out.
 */
export async function latestReadingsOfRoom(
  db: Db,
  workspaceId: string,
  roomId: string,
): Promise<LatestReading[]> {
  const latest = new Map<string, LatestReading>();
  for (const row of await recentRoomReadings(db, workspaceId, roomId, ROOM_SUMMARY_READINGS)) {
    if (latest.has(row.type)) continue;
    latest.set(row.type, {
      type: row.type,
      value: row.value,
      unit: row.unit,
      recorded_at: row.recorded_at,
      device_id: row.device_id,
      out_of_range: outOfRange(row.type, row.unit, row.value),
    });
  }
  return [...latest.values()].sort((a, b) => a.type.localeCompare(b.type));
}
