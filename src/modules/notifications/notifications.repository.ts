import { bulkInsert } from '../../db/bulk-insert.js';
import type { Db, Trx } from '../../db/database.js';
import { fetchPage, NEWEST_FIRST, type Page, type PageRequest } from '../../db/pages.js';
import type { NotificationSettingsTable, NotificationTable } from '../../db/schema.js';

export type NotificationRow = NotificationTable;
export type SettingsRow = NotificationSettingsTable;

const storeNotifications = bulkInsert(
  'notifications',
  {
    id: 'text',
    workspace_id: 'text',
    member_id: 'text',
    kind: 'text',
    event_key: 'text',
    record_type: 'text',
    record_id: 'text',
    record_label: 'text',
    room_id: 'text',
    comment_id: 'text',
    actor_id: 'text',
    created_at: 'text',
    read_at: 'text',
  },
  { ignoreConflictOn: ['member_id', 'event_key'] },
);

const COLUMNS = storeNotifications.columns;

/** Stores notifications; one already stored for its person and event is left as it is. */
export async function insertNotifications(
  trx: Trx,
  rows: readonly NotificationRow[],
): Promise<void> {
  await storeNotifications.run(trx, rows);
}

/** One person's inbox, newest first (index `notifications_inbox`, or `_unread`). */
export function listInbox(
  db: Db,
  workspaceId: string,
  memberId: string,
  filters: { unread: boolean },
  page: PageRequest,
): Promise<Page<NotificationRow>> {
  let query = db
    .selectFrom('notifications')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('member_id', '=', memberId);
  if (filters.unread) query = query.where('read_at', 'is', null);
  return fetchPage(query, NEWEST_FIRST, page);
}

/** How many of the person's notifications are unread, counted up to `max`. */
export async function countUnread(
  db: Db,
  workspaceId: string,
  memberId: string,
  max: number,
): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('notifications')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('member_id', '=', memberId)
        .where('read_at', 'is', null)
        .limit(max)
        .as('unread'),
    )
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Which of these ids are the person's notifications. */
export async function ownNotificationIds(
  db: Db,
  workspaceId: string,
  memberId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  const rows = await db
    .selectFrom('notifications')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('member_id', '=', memberId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** Marks the person's unread notifications read: these ids, or all of them. Answers how many. */
export async function markRead(
  trx: Trx,
  workspaceId: string,
  memberId: string,
  ids: readonly string[] | 'all',
  now: string,
): Promise<number> {
  let query = trx
    .updateTable('notifications')
    .set({ read_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('member_id', '=', memberId)
    .where('read_at', 'is', null);
  if (ids !== 'all') query = query.where('id', 'in', ids);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** One notification of a person by its event (what an email is about). */
export function findByEvent(
  db: Db,
  memberId: string,
  eventKey: string,
): Promise<NotificationRow | undefined> {
  return db
    .selectFrom('notifications')
    .select(COLUMNS)
    .where('member_id', '=', memberId)
    .where('event_key', '=', eventKey)
    .executeTakeFirst();
}

/** A person's unread notifications of some kinds made in (from, to], oldest first (a digest). */
export function unreadBetween(
  db: Db,
  workspaceId: string,
  memberId: string,
  kinds: readonly string[],
  period: { from: string; to: string },
  limit: number,
): Promise<NotificationRow[]> {
  return db
    .selectFrom('notifications')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('member_id', '=', memberId)
    .where('read_at', 'is', null)
    .where('created_at', '>', period.from)
    .where('created_at', '<=', period.to)
    .where('kind', 'in', kinds)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

const SETTINGS_COLUMNS = [
  'member_id',
  'workspace_id',
  'muted_kinds',
  'follow_all_rooms',
  'room_ids',
  'email',
  'time_zone',
  'updated_at',
] as const;

/** The stored settings of the workspace's members (those who changed any), or of some of them. */
export function settingsOf(
  db: Db,
  workspaceId: string,
  memberIds?: readonly string[],
): Promise<SettingsRow[]> {
  let query = db
    .selectFrom('notification_settings')
    .select(SETTINGS_COLUMNS)
    .where('workspace_id', '=', workspaceId);
  if (memberIds !== undefined) {
    if (memberIds.length === 0) return Promise.resolve([]);
    query = query.where('member_id', 'in', memberIds);
  }
  return query.execute();
}

/** Stores a person's settings whole (the first change inserts them). */
export async function saveSettings(trx: Trx, row: SettingsRow): Promise<void> {
  await trx
    .insertInto('notification_settings')
    .values(row)
    .onConflict((oc) =>
      oc.column('member_id').doUpdateSet({
        muted_kinds: row.muted_kinds,
        follow_all_rooms: row.follow_all_rooms,
        room_ids: row.room_ids,
        email: row.email,
        time_zone: row.time_zone,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

/** Where the pass `name` stopped last; undefined before its first run. */
export async function passMark(db: Db, name: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('notification_passes')
    .select('until')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.until;
}

export async function setPassMark(trx: Trx, name: string, until: string): Promise<void> {
  await trx
    .insertInto('notification_passes')
    .values({ name, until })
    .onConflict((oc) => oc.column('name').doUpdateSet({ until }))
    .execute();
}
