import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import type { Page, PageRequest } from '../../db/pages.js';
import { AppError, errors } from '../../kernel/errors.js';
import type { Principal } from '../../kernel/principal.js';
import {
  countUnread,
  listInbox,
  markRead,
  ownNotificationIds,
  type NotificationRow,
} from './notifications.repository.js';
import {
  UNREAD_COUNT_MAX,
  type MarkReadBody,
  type NotificationKind,
  type NotificationQuery,
  type NotificationRecord,
} from './notifications.schemas.js';

export function presentNotification(row: NotificationRow): NotificationRecord {
  return {
    id: row.id,
    kind: row.kind as NotificationKind,
    record: { type: row.record_type, id: row.record_id, label: row.record_label },
    room_id: row.room_id,
    comment_id: row.comment_id,
    actor_id: row.actor_id,
    created_at: row.created_at,
    read_at: row.read_at,
  };
}

/** The member a key or session acts as: the inbox is always that member's own. */
export function memberOf(principal: Principal): string {
  // Only a device token has no member, and the kernel refuses it before any handler runs.
  if (principal.memberId === null)
    throw new AppError('FORBIDDEN', 'Notifications are a member’s own');
  return principal.memberId;
}

/** The caller's inbox, newest first, with their unread count. */
export async function listNotifications(
  db: Db,
  principal: Principal,
  query: Static<typeof NotificationQuery>,
  page: PageRequest,
): Promise<Page<NotificationRecord> & { meta: { unread_count: number } }> {
  const memberId = memberOf(principal);
  const [{ items, nextKey }, unread] = await Promise.all([
    listInbox(db, principal.workspaceId, memberId, { unread: query.unread === true }, page),
    countUnread(db, principal.workspaceId, memberId, UNREAD_COUNT_MAX),
  ]);
  return { items: items.map(presentNotification), nextKey, meta: { unread_count: unread } };
}

/**
 * Marks the caller's notifications read: `ids` (each must be the caller's own, or
 * nothing changes: 422) or `all`. One read already keeps its first `read_at`.
 */
export async function markNotificationsRead(
  trx: Trx,
  principal: Principal,
  body: Static<typeof MarkReadBody>,
  now: string,
): Promise<{ marked: number; unread_count: number }> {
  const memberId = memberOf(principal);
  const workspaceId = principal.workspaceId;
  if ((body.ids === undefined) === (body.all !== true)) {
    throw errors.validation('send ids (a list) or all: true, one of the two');
  }
  if (body.all === false) throw errors.validation('all: only true marks every notification');
  let marked: number;
  if (body.ids !== undefined) {
    const own = await ownNotificationIds(trx, workspaceId, memberId, body.ids);
    body.ids.forEach((id, i) => {
      if (!own.has(id)) throw errors.validation(`ids[${i}]: no notification of yours with this id`);
    });
    marked = await markRead(trx, workspaceId, memberId, body.ids, now);
  } else {
    marked = await markRead(trx, workspaceId, memberId, 'all', now);
  }
  return { marked, unread_count: await countUnread(trx, workspaceId, memberId, UNREAD_COUNT_MAX) };
}
