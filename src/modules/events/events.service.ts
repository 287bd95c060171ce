import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { newId } from '../../kernel/ids.js';
import type { Page, PageRequest } from '../../db/pages.js';
import { strictlyAfter } from '../../kernel/time.js';
import { errors } from '../../kernel/errors.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import {
  eventsAfter,
  findEventRow,
  findEventRows,
  insertEvent,
  insertEvents,
  latestEventSequence,
  listActivity as listActivityRows,
  listEvents as listEventRows,
  nextEventSequence,
  setLastEventAt,
  type EventRow,
} from './events.repository.js';
import type {
  ActivityQuery,
  ChangeEvent as ChangeEventSchema,
  ENTITY_TYPES,
} from './events.schemas.js';
import { explantsChanged } from '../insights/index.js';

export type { EventRow };

/** The records whose changes the history keeps. */
export type EntityType = 'plant' | 'explant';
/** What a change-history event can be about: those records, and sensor alert episodes. */
export type FeedEntityType = (typeof ENTITY_TYPES)[number];
export type ChangeEventType =
  | 'created'
  | 'updated'
  | 'stage_change'
  | 'transfer'
  | 'contamination'
  | 'contamination_resolved'
  | 'archived'
  | 'unarchived'
  | 'opened'
  | 'resolved'
  | 'split'
  | 'merged'
  | 'recalled'
  | 'low'
  | 'expired';

/** Every kind of event the change history holds, as `entity_type.event_type`. */
export const EVENT_TYPES = [
  'plant.created',
  'plant.updated',
  'plant.stage_change',
  'plant.transfer',
  'plant.contamination',
  'plant.contamination_resolved',
  'plant.archived',
  'plant.unarchived',
  'explant.created',
  'explant.updated',
  'explant.stage_change',
  'explant.transfer',
  'explant.contamination',
  'explant.contamination_resolved',
  'explant.archived',
  'explant.unarchived',
  'sensor_alert.opened',
  'sensor_alert.resolved',
  // Beyond the wire format: an explant's family (issue 39), recorded only by its own operations.
  'explant.split',
  'explant.merged',
  'explant.recalled',
  'plant.recalled',
  // Beyond the wire format: a stock lot below its reorder level or past its expiry (issue 39).
  'stock_lot.low',
  'stock_lot.expired',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The `entity_type.event_type` name of an event. */
export const eventTypeOf = (row: Pick<EventRow, 'entity_type' | 'event_type'>): string =>
  `${row.entity_type}.${row.event_type}`;

export interface NewChangeEvent {
  workspaceId: string;
  entityType: FeedEntityType;
  entityId: string;
  stageId?: string | null;
  eventType: ChangeEventType;
  /** When the change happened in the lab (e.g. a stage's entered_on); default now. */
  eventTime?: string;
  recordedBy: string | null;
  payload: unknown;
}

export type ChangeEvent = Static<typeof ChangeEventSchema>;

/**
 * Appends a change-history event inside the caller's transaction. `created_at`
 * strictly increases within a workspace, so `since` (exclusive) never skips an
 * event that committed later with the same millisecond.
 */
export async function recordChangeEvent(trx: Trx, event: NewChangeEvent): Promise<EventRow> {
  const [row] = await recordChangeEvents(trx, [event]);
  return row!;
}

/**
 * Appends several events of one workspace, in order, as `recordChangeEvent` would
 * one after the other, but with one sequence reservation and one `last_event_at`
 * write for all of them (a write that changes two records records both at once).
 */
export async function recordChangeEvents(
  trx: Trx,
  events: readonly NewChangeEvent[],
): Promise<EventRow[]> {
  if (events.length === 0) return [];
  const workspaceId = events[0]!.workspaceId;
  if (events.some((event) => event.workspaceId !== workspaceId)) {
    throw new Error('recordChangeEvents: the events of one call belong to one workspace');
  }
  const { seq, lastEventAt } = await nextEventSequence(trx, workspaceId, events.length);
  let previous = lastEventAt;
  const rows = events.map((event, i): EventRow => {
    const createdAt = strictlyAfter(new Date().toISOString(), previous);
    previous = createdAt;
    return {
      id: newId(),
      workspace_id: workspaceId,
      seq: seq + i,
      entity_type: event.entityType,
      entity_id: event.entityId,
      stage_id: event.stageId ?? null,
      event_type: event.eventType,
      event_time: event.eventTime ?? createdAt,
      recorded_by: event.recordedBy,
      payload: JSON.stringify(event.payload ?? null),
      created_at: createdAt,
    };
  });
  await setLastEventAt(trx, workspaceId, previous!);
  if (rows.length === 1) await insertEvent(trx, rows[0]!);
  else await insertEvents(trx, rows);
  // Every change to an explant records an event of it: its kept handlings follow.
  for (const event of events) {
    if (event.entityType === 'explant') {
      explantsChanged(trx, workspaceId, [event.entityId], transferOf(event));
    }
  }
  return rows;
}

/**
 * The transfer an explant's event records the adding of, with what followed from it
 * (the explant's counts, a split); null for any other change.
 */
function transferOf(event: NewChangeEvent): string | null {
  if (!['transfer', 'split', 'updated'].includes(event.eventType)) return null;
  const payload = event.payload as { transfer_id?: unknown } | null | undefined;
  return typeof payload?.transfer_id === 'string' ? payload.transfer_id : null;
}

/**
 * Records `events` now with `recordChangeEvents`, or, when the caller gathers the events
 * of a larger write (a split records a transfer and creates daughters) to record them
 * all in one call at its end, appends them to `gathered` in order instead.
 */
export async function recordOrGather(
  trx: Trx,
  events: readonly NewChangeEvent[],
  gathered: NewChangeEvent[] | undefined,
): Promise<void> {
  if (gathered === undefined) await recordChangeEvents(trx, events);
  else gathered.push(...events);
}

export function presentEvent(row: EventRow): ChangeEvent {
  return {
    id: row.id,
    entity_type: row.entity_type as FeedEntityType,
    entity_id: row.entity_id,
    stage_id: row.stage_id,
    event_type: row.event_type,
    event_time: row.event_time,
    recorded_by: row.recorded_by,
    payload: JSON.parse(row.payload) as unknown,
    created_at: row.created_at,
  };
}

export async function listChangeEvents(
  db: Db,
  workspaceId: string,
  filter: { entityType: FeedEntityType; since: string | null },
  page: PageRequest,
): Promise<Page<ChangeEvent>> {
  const { items, nextKey } = await listEventRows(db, workspaceId, filter, page);
  return { items: items.map(presentEvent), nextKey };
}

/**
 * The workspace's events after sequence number `afterSeq`, oldest first: the feed as
 * GET /events pages it, all entity types together (what webhooks deliver). Events of
 * a workspace commit in sequence order (see nextEventSequence), so a reader that
 * remembers the last number it saw never skips one.
 */
export function listEventsAfter(
  db: Db,
  workspaceId: string,
  afterSeq: number,
  limit: number,
): Promise<EventRow[]> {
  return eventsAfter(db, workspaceId, afterSeq, limit);
}

/** The sequence number of the workspace's latest committed event (0 before the first). */
export function currentEventSequence(db: Db, workspaceId: string): Promise<number> {
  return latestEventSequence(db, workspaceId);
}

/** One event of the workspace by its id. */
export function findEvent(db: Db, workspaceId: string, id: string): Promise<EventRow | undefined> {
  return findEventRow(db, workspaceId, id);
}

/** Events of the workspace by their ids, in no particular order. */
export function findEvents(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): Promise<EventRow[]> {
  return findEventRows(db, workspaceId, ids);
}

/**
 * The latest activity, newest first: every change of the workspace's plants and
 * explants, or of one kind, or of one record (which must be a plant or explant of
 * the workspace, of that kind when `entity` is sent: 404 otherwise).
 */
export async function listActivity(
  db: Db,
  workspaceId: string,
  query: Static<typeof ActivityQuery>,
  records: RecordLookup,
  page: PageRequest,
): Promise<Page<ChangeEvent>> {
  if (query.entity_id !== undefined) {
    const kinds: EntityType[] = query.entity === undefined ? ['plant', 'explant'] : [query.entity];
    let found = false;
    for (const kind of kinds) {
      if ((await records.find(db, kind, workspaceId, query.entity_id)) !== undefined) found = true;
    }
    if (!found) throw errors.notFound('Record');
  }
  const { items, nextKey } = await listActivityRows(
    db,
    workspaceId,
    {
      ...(query.entity === undefined ? {} : { entityType: query.entity }),
      ...(query.entity_id === undefined ? {} : { entityId: query.entity_id }),
    },
    page,
  );
  return { items: items.map(presentEvent), nextKey };
}
