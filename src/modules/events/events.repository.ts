import type { Db, Trx } from '../../db/database.js';
import { fetchPage, type Ordering, type Page, type PageRequest } from '../../db/pages.js';
import { bulkInsert } from '../../db/bulk-insert.js';
import { pick, preparedQuery } from '../../db/prepared.js';
import type { EventTable } from '../../db/schema.js';

export type EventRow = EventTable;

const COLUMNS = [
  'id',
  'workspace_id',
  'seq',
  'entity_type',
  'entity_id',
  'stage_id',
  'event_type',
  'event_time',
  'recorded_by',
  'payload',
  'created_at',
] as const;

const bumpSequence = preparedQuery((db, p: { workspaceId: string; count: number }) =>
  db
    .updateTable('workspaces')
    .set((eb) => ({ event_seq: eb('event_seq', '+', p.count) }))
    .where('id', '=', p.workspaceId)
    .returning(['event_seq', 'last_event_at']),
);

/**
 * Takes the next `count` change-history sequence numbers of a workspace: the
 * first of them and the workspace's last event time. The row lock this update
 * takes is held until the transaction commits, so events of one workspace commit
 * in sequence order and a reader paging by sequence never skips one.
 */
export async function nextEventSequence(
  trx: Trx,
  workspaceId: string,
  count = 1,
): Promise<{ seq: number; lastEventAt: string | null }> {
  const row = await bumpSequence.first(trx, { workspaceId, count });
  if (row === undefined) throw new Error(`workspace ${workspaceId} does not exist`);
  return { seq: Number(row.event_seq) - count + 1, lastEventAt: row.last_event_at };
}

const lastEventAt = preparedQuery((db, p: { workspaceId: string; at: string }) =>
  db.updateTable('workspaces').set({ last_event_at: p.at }).where('id', '=', p.workspaceId),
);

export async function setLastEventAt(trx: Trx, workspaceId: string, at: string): Promise<void> {
  await lastEventAt.run(trx, { workspaceId, at });
}

const insertEventRow = preparedQuery((db, p: EventRow) =>
  db.insertInto('events').values(pick(p, COLUMNS)),
);

export async function insertEvent(trx: Trx, row: EventRow): Promise<void> {
  await insertEventRow.run(trx, row);
}

const insertEventRows = bulkInsert('events', {
  id: 'text',
  workspace_id: 'text',
  seq: 'bigint',
  entity_type: 'text',
  entity_id: 'text',
  stage_id: 'text',
  event_type: 'text',
  event_time: 'text',
  recorded_by: 'text',
  payload: 'text',
  created_at: 'text',
});

/** Many events at once (one statement on PostgreSQL), in order. */
export async function insertEvents(trx: Trx, rows: readonly EventRow[]): Promise<void> {
  await insertEventRows.run(trx, rows);
}

/** Oldest first by the workspace's sequence: equal timestamps never reorder or skip. */
const BY_SEQUENCE: Ordering = { columns: ['seq'], direction: 'asc' };

export function listEvents(
  db: Db,
  workspaceId: string,
  filter: { entityType: string; since: string | null },
  page: PageRequest,
): Promise<Page<EventRow>> {
  let query = db
    .selectFrom('events')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('entity_type', '=', filter.entityType);
  if (filter.since !== null) query = query.where('created_at', '>', filter.since);
  return fetchPage(query, BY_SEQUENCE, page);
}

const afterSequence = preparedQuery(
  (db, p: { workspaceId: string; afterSeq: number; limit: number }) =>
    db
      .selectFrom('events')
      .select(COLUMNS)
      .where('workspace_id', '=', p.workspaceId)
      .where('seq', '>', p.afterSeq)
      .orderBy('seq', 'asc')
      .limit(p.limit),
);

export function eventsAfter(
  db: Db,
  workspaceId: string,
  afterSeq: number,
  limit: number,
): Promise<EventRow[]> {
  return afterSequence.all(db, { workspaceId, afterSeq, limit });
}

export async function latestEventSequence(db: Db, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('workspaces')
    .select('event_seq')
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  return Number(row?.event_seq ?? 0);
}

export function findEventRow(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<EventRow | undefined> {
  return db
    .selectFrom('events')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findEventRows(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): Promise<EventRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('events')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .execute();
}

/** Newest first by the workspace's sequence. */
const NEWEST_SEQUENCE: Ordering = { columns: ['seq'], direction: 'desc' };

/**
 * The workspace's activity, newest first, optionally of one kind or one record:
 * ranges of (workspace_id, seq), (workspace_id, entity_type, seq) and
 * (workspace_id, entity_id, seq) read backwards.
 */
export function listActivity(
  db: Db,
  workspaceId: string,
  filter: { entityType?: string; entityId?: string },
  page: PageRequest,
): Promise<Page<EventRow>> {
  let query = db.selectFrom('events').select(COLUMNS).where('workspace_id', '=', workspaceId);
  if (filter.entityType !== undefined) query = query.where('entity_type', '=', filter.entityType);
  if (filter.entityId !== undefined) query = query.where('entity_id', '=', filter.entityId);
  return fetchPage(query, NEWEST_SEQUENCE, page);
}
