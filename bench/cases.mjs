// The bench cases: one request each, with the throughput goal (vitro/baseline) from the issues.
import { mask, writesOfCreatedPlant, writesOfTransfer } from './inspect.mjs';

import { ingestBodies, INGEST_BATCH, LIST_LIMIT } from './readings.mjs';

const CREATE_BODY = JSON.stringify({ species: 'Ficus lyrata' });
const JSON_HEADERS = { 'content-type': 'application/json' };

/** Vessel counts of seeded transfers stay below this; the bench's transfers count more. */
export const SEEDED_VESSELS_BELOW = 30;

/**
 * Bodies of POST /transfers, one per request: the n-th transfers explant n mod 999 (every
 * seeded explant but the listed one) and counts more vessels than its last transfer did, so
 * each request takes the whole path (transfer, its event, the explant's new count and that
 * change's event), as a lab recording its day's transfers would.
 */
const transferCounters = new WeakMap();
function nextTransferBody(seeded) {
  const n = transferCounters.get(seeded) ?? 0;
  transferCounters.set(seeded, n + 1);
  const explants = seeded.otherExplantIds;
  return JSON.stringify({
    explant_id: explants[n % explants.length],
    vessel_count: SEEDED_VESSELS_BELOW + Math.floor(n / explants.length),
  });
}

export const CASES = [
  {
    name: 'me',
    label: 'GET /api/v1/me',
    goal: 0.75,
    request: () => ({ method: 'GET', path: '/api/v1/me' }),
    // The key's last use is stamped by whichever server saw it first in the minute.
    comparable: (body) => mask(body, 'data.key.lastUsedAt'),
  },
  {
    name: 'plant',
    label: 'GET /api/v1/plants/{id}',
    goal: 0.8,
    request: (seeded) => ({ method: 'GET', path: `/api/v1/plants/${seeded.plantId}` }),
    comparable: (body) => body,
  },
  {
    name: 'plants',
    label: 'GET /api/v1/plants (page of 50)',
    goal: 0.8,
    request: () => ({ method: 'GET', path: '/api/v1/plants' }),
    comparable: (body) => body,
    check: (body) =>
      body.data.length === 50 && typeof body.meta?.next_cursor === 'string'
        ? null
        : 'expected a full page of 50 plants and a next_cursor',
  },
  {
    name: 'readings',
    label: 'GET /api/v1/sensor-readings (page of 1,000)',
    goal: 0.8,
    // The issue also asks for p99 under 50 ms at half of Vitro's measured throughput.
    halfCapacityP99: 50,
    needsReadings: true,
    request: (seeded) => ({
      method: 'GET',
      path:
        `/api/v1/sensor-readings?device_id=${seeded.readings.listDeviceId}` +
        `&since=${encodeURIComponent(seeded.readings.listSince)}&limit=${LIST_LIMIT}`,
    }),
    comparable: (body) => body,
    check: (body) =>
      body.data?.length === LIST_LIMIT && typeof body.meta?.next_cursor === 'string'
        ? null
        : `expected a full page of ${LIST_LIMIT} readings and a next_cursor`,
  },
  ...['month', 'day'].map((chart) => ({
    name: chart === 'month' ? 'summary' : 'summary-day',
    label: `GET /api/v1/sensor-readings/summary (${chart === 'month' ? '30 days in 1 h' : '24 hours in 5 m'})`,
    goal: 0.8,
    // The issue asks for p99 at most 50 ms at half of Vitro's measured throughput.
    halfCapacityP99: 50,
    needsReadings: true,
    request: (seeded) => {
      const { bucket, since, until } = seeded.readings.charts[chart];
      return {
        method: 'GET',
        path:
          `/api/v1/sensor-readings/summary?device_id=${seeded.readings.listDeviceId}` +
          `&bucket=${bucket}&since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`,
      };
    },
    comparable: (body) => body,
    check: (body) =>
      Array.isArray(body.data) && body.data.length > 0 && body.data.every((b) => b.count > 0)
        ? null
        : 'expected buckets with readings',
  })),
  {
    name: 'create',
    label: 'POST /api/v1/plants',
    goal: 0.7,
    writes: true,
    // With webhook endpoints subscribed, the baseline creates its plants in a second lab
    // with none: Vitro's worker would deliver the baseline's events while it is measured.
    baselineElsewhere: true,
    // Its events' deliveries are also timed from the answers of plants created besides the load.
    probesDeliveries: true,
    request: () => ({
      method: 'POST',
      path: '/api/v1/plants',
      headers: JSON_HEADERS,
      body: CREATE_BODY,
    }),
    comparable: (body) =>
      mask(
        body,
        'data.id',
        'data.created_at',
        'data.updated_at',
        'data.current_stage.id',
        'data.current_stage.entered_on',
      ),
    written: writesOfCreatedPlant,
    checkWritten: (written) =>
      written.stages.length === 1 && written.events.length === 1
        ? null
        : 'expected one stage and one event per created plant',
  },
  {
    name: 'transfers',
    label: 'GET /api/v1/transfers?explant_id (page of 50)',
    goal: 0.8,
    transfers: true,
    request: (seeded) => ({
      method: 'GET',
      path: `/api/v1/transfers?explant_id=${seeded.explantId}`,
    }),
    comparable: (body) => body,
    check: (body) =>
      body.data.length === 50 && typeof body.meta?.next_cursor === 'string'
        ? null
        : 'expected a full page of 50 transfers and a next_cursor',
  },
  {
    name: 'transfer-create',
    label: 'POST /api/v1/transfers (explant, vessel_count)',
    goal: 0.7,
    transfers: true,
    writes: true,
    // Each call (each server in the verify step) gets the next explant; under load the
    // body changes with every request.
    request: (seeded) => ({
      method: 'POST',
      path: '/api/v1/transfers',
      headers: JSON_HEADERS,
      body: nextTransferBody(seeded),
      nextBody: () => nextTransferBody(seeded),
    }),
    comparable: (body) =>
      mask(body, 'data.id', 'data.entity_id', 'data.transfer_date', 'data.created_at'),
    written: writesOfTransfer,
    checkWritten: (written) =>
      written.events.map((e) => e.event_type).join() === 'transfer,updated'
        ? null
        : 'expected a transfer event and an updated event (the new vessel count)',
  },
  {
    name: 'ingest',
    label: 'POST /api/v1/sensor-readings (500 readings)',
    goal: 0.8,
    itemsPerRequest: INGEST_BATCH,
    needsReadings: true,
    request: (seeded) => ({
      method: 'POST',
      path: '/api/v1/sensor-readings',
      headers: { 'content-type': 'application/json' },
      // A new batch (new external ids and times) for every request: repeats would be skipped.
      bodies: () => ingestBodies(seeded.readings.deviceIds),
    }),
    // Both store every reading of their batch; the batches differ, so compare the shape.
    comparable: (body) => ({
      ok: body.ok,
      stored: body.data.length,
      fields: Object.keys(body.data[0] ?? {}),
      meta: body.meta ?? null,
    }),
    check: (body) =>
      body.data?.length === INGEST_BATCH ? null : `expected ${INGEST_BATCH} stored readings`,
  },
];

export const CASE_NAMES = CASES.map((c) => c.name);

/**
 * The cases named in `names`, in bench order: reads first (writes change the newest page),
 * and each write case after the reads of its own records.
 */
export function selectCases(names) {
  const unknown = names.filter((name) => !CASE_NAMES.includes(name));
  if (unknown.length > 0) {
    throw new Error(`unknown case ${unknown.join(', ')}; cases are ${CASE_NAMES.join(', ')}`);
  }
  return CASES.filter((c) => names.includes(c.name));
}
