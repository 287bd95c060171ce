import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { newId } from '../../kernel/ids.js';
import type { Page, PageRequest } from '../../db/pages.js';
import { strictlyAfter } from '../../kernel/time.js';
import {
  insertEvent,
  listEvents as listEventRows,
  nextEventSequence,
  setLastEventAt,
  type EventRow,
} from './events.repository.js';
import type { ChangeEvent as ChangeEventSchema } from './events.schemas.js';

export type EntityType = 'plant' | 'explant';
export type ChangeEventType = 'created' | 'updated' | 'stage_change' | 'transfer' | 'contamination';

export interface NewChangeEvent {
  workspaceId: string;
  entityType: EntityType;
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
  for (const row of rows) await insertEvent(trx, row);
  return rows;
}

export function presentEvent(row: EventRow): ChangeEvent {
  return {
    id: row.id,
    entity_type: row.entity_type as EntityType,
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
  filter: { entityType: EntityType; since: string | null },
  page: PageRequest,
): Promise<Page<ChangeEvent>> {
  const { items, nextKey } = await listEventRows(db, workspaceId, filter, page);
  return { items: items.map(presentEvent), nextKey };
}
