// The per-request domain work of the baseline: the same checks, rows and JSON as Vitro's
// services produce, without Vitro's kernel around them.
import { Buffer } from 'node:buffer';
import { createHash, createHmac } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { effectiveScopes, isScope, planAccess } from '../dist/kernel/access.js';

const TOUCH_INTERVAL_MS = 60_000;

export function hashKey(secret) {
  return createHash('sha256').update(secret).digest('hex');
}

/** A usable key row, or null: the checks Vitro's authenticator makes on the joined row. */
export function checkKeyRow(row) {
  if (
    row === undefined ||
    row.revoked_at !== null ||
    row.member_status !== 'active' ||
    row.member_workspace_id !== row.workspace_id
  ) {
    return null;
  }
  return { ...row, scopes: JSON.parse(row.scopes).filter(isScope) };
}

export function needsTouch(row, nowMs) {
  return row.last_used_at === null || Date.parse(row.last_used_at) < nowMs - TOUCH_INTERVAL_MS;
}

export function presentMe(key) {
  return {
    key: {
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      environment: key.environment,
      status: 'active',
      lastUsedAt: key.last_used_at,
      createdAt: key.created_at,
    },
    scopes: key.scopes,
    effectiveScopes: effectiveScopes(key.scopes, key.role, key.plan),
    role: key.role,
    apiAccess: planAccess(key.plan) === 'full' ? 'full' : 'devices',
    workspace: { id: key.workspace_id },
    user: { id: key.member_id },
  };
}

export function presentPlant(row) {
  return {
    id: row.id,
    name: row.common_name !== null && row.common_name !== '' ? row.common_name : row.species,
    species: row.species,
    status: row.status,
    workspace_id: row.workspace_id,
    created_at: row.created_at,
    external_id: row.external_id,
    custom_fields: JSON.parse(row.custom_fields),
    common_name: row.common_name,
    genus: row.genus,
    family: row.family,
    cultivar: row.cultivar,
    source: row.source,
    notes: row.notes,
    updated_at: row.updated_at,
    current_stage:
      row.current_stage_id === null || row.current_stage === null
        ? null
        : {
            id: row.current_stage_id,
            stage: row.current_stage,
            name: row.current_stage_name,
            entered_on: row.current_stage_entered_on ?? '',
            room_id: row.current_room_id,
          },
    archived_at: row.archived_at,
    archived_by: row.archived_by,
    created_by: row.created_by,
  };
}

/** Vitro's filterHash: the list's filters (paging parameters aside) as sorted-key JSON, hashed. */
export function filterHash(query) {
  const filters = {};
  for (const key of Object.keys(query).sort()) {
    if (query[key] === undefined || ['limit', 'offset', 'cursor'].includes(key)) continue;
    filters[key] = typeof query[key] === 'string' ? query[key] : JSON.stringify(query[key]);
  }
  return createHash('sha256').update(JSON.stringify(filters)).digest('base64url').slice(0, 22);
}

/** Signs a list's `next_cursor`, byte for byte what Vitro's CursorCodec makes. */
export function createCursorSigner(secret) {
  const macKey = Buffer.from(`vitro-cursor:${secret}`);
  return (list, filters, workspaceId, sortKey) => {
    const payload = { v: 1, l: list, f: filters, w: workspaceId, k: sortKey };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    const mac = createHmac('sha256', macKey).update(body).digest().subarray(0, 16);
    return `${body}.${mac.toString('base64url')}`;
  };
}

/** The stage a new plant starts in (`{key, name}`): Mother Block, else the first of the list. */
export function initialStageOf(options) {
  return options.find((o) => o.key === 'mother_block') ?? options[0] ?? null;
}

/** The plant and first-stage rows of POST /plants for a body with `species` only. */
export function newPlantRows(key, species, initial, now) {
  const stage = initial?.key ?? null;
  const plantId = uuidv7();
  const stageRow =
    stage === null
      ? null
      : {
          id: uuidv7(),
          workspace_id: key.workspace_id,
          entity_type: 'plant',
          entity_id: plantId,
          stage,
          status: 'active',
          entered_on: now,
          completed_at: null,
          room_id: null,
          notes: null,
          created_by: key.member_id,
          created_at: now,
        };
  const plant = {
    id: plantId,
    workspace_id: key.workspace_id,
    species,
    common_name: null,
    genus: null,
    family: null,
    cultivar: null,
    source: null,
    notes: null,
    status: 'active',
    external_id: null,
    external_id_key: null,
    custom_fields: '{}',
    created_by: key.member_id,
    created_at: now,
    updated_at: now,
    deleted_at: null,
    current_stage_id: stageRow?.id ?? null,
    current_stage: stage,
    current_stage_name: initial?.name ?? null,
    current_stage_entered_on: stageRow === null ? null : now,
    current_room_id: null,
    archived_at: null,
    archived_by: null,
    search_text: species.toLowerCase(),
  };
  return { plant, stage: stageRow };
}

function strictlyAfter(candidate, previous) {
  if (previous === null || candidate > previous) return candidate;
  return new Date(new Date(previous).getTime() + 1).toISOString();
}

/** A change-history event row, given what the workspace's sequence update returned. */
export function changeEventRow(event, sequence) {
  const createdAt = strictlyAfter(new Date().toISOString(), sequence.last_event_at);
  return {
    id: uuidv7(),
    workspace_id: event.workspace_id,
    seq: Number(sequence.event_seq),
    entity_type: event.entity_type,
    entity_id: event.entity_id,
    stage_id: event.stage_id ?? null,
    event_type: event.event_type,
    event_time: event.event_time ?? createdAt,
    recorded_by: event.recorded_by,
    payload: JSON.stringify(event.payload ?? null),
    created_at: createdAt,
  };
}

/**
 * The rows of `events` of one workspace recorded together, as Vitro's
 * recordChangeEvents does: `sequence` holds the last of the numbers reserved for
 * them and the workspace's previous last event time.
 */
export function changeEventRows(events, sequence) {
  const first = Number(sequence.event_seq) - events.length + 1;
  let lastEventAt = sequence.last_event_at;
  return events.map((event, i) => {
    const row = changeEventRow(event, { event_seq: first + i, last_event_at: lastEventAt });
    lastEventAt = row.created_at;
    return row;
  });
}

/** The `created` change event of a new plant. */
export function createdEventRow(rows, sequence, now) {
  const { plant, stage } = rows;
  return changeEventRow(
    {
      workspace_id: plant.workspace_id,
      entity_type: 'plant',
      entity_id: plant.id,
      stage_id: stage?.id ?? null,
      event_type: 'created',
      event_time: now,
      recorded_by: plant.created_by,
      payload: { ...presentPlant(plant), initial_stage: stage?.stage ?? null },
    },
    sequence,
  );
}
