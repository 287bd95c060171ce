import type { Routes } from '../../kernel/routes/index.js';
import {
  MarkReadBody,
  MarkReadResult,
  Notification,
  NotificationListMeta,
  NotificationQuery,
  NotificationSettings,
  UpdateNotificationSettingsBody,
} from './notifications.schemas.js';
import { listNotifications, markNotificationsRead } from './notifications.service.js';
import { getNotificationSettings, updateNotificationSettings } from './settings.service.js';

const TAGS = ['Notifications'];

export function registerNotificationRoutes(
  routes: Routes,
  deps: { readonly emailAvailable: boolean },
): void {
  routes.list({
    url: '/api/v1/notifications',
    operationId: 'listNotifications',
    tags: TAGS,
    summary: "List the caller's notifications",
    description:
      'The inbox of the member the key or session acts as, and nobody else’s: newest first, ' +
      'each with its `kind`, the record it is about (`record`: type, id, label) and `read_at`. ' +
      '`unread=true` lists the unread ones; `meta.unread_count` counts them (up to 1,000).',
    scope: 'read:notifications',
    failureCode: 'NOTIFICATION_QUERY_FAILED',
    querystring: NotificationQuery,
    paging: { list: 'notifications' },
    item: Notification,
    meta: NotificationListMeta,
    handler: (req, ctx) => listNotifications(ctx.db, ctx.principal, req.query, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/notifications/read',
    operationId: 'markNotificationsRead',
    tags: TAGS,
    summary: 'Mark notifications read',
    description:
      '`{"ids": [...]}` marks those (each must be one of the caller’s own, else 422 and nothing ' +
      'changes), `{"all": true}` every unread one. A notification read already keeps its ' +
      'first `read_at`. Answers how many this request marked and how many stay unread.',
    scope: 'write:notifications',
    status: 200,
    failureCode: 'NOTIFICATION_UPDATE_FAILED',
    body: MarkReadBody,
    data: MarkReadResult,
    handler: async (req, ctx) => ({
      data: await markNotificationsRead(ctx.trx, ctx.principal, req.body, ctx.now),
    }),
  });

  routes.read({
    url: '/api/v1/notification-settings',
    operationId: 'getNotificationSettings',
    tags: TAGS,
    summary: "Get the caller's notification settings",
    description:
      'Which kinds the member is told of, which rooms they follow (for transfers due, ' +
      'contaminations and sensor alerts), whether they get email, and their time zone. ' +
      'Until changed: every kind, every room, email on, UTC.',
    scope: 'read:notifications',
    failureCode: 'NOTIFICATION_QUERY_FAILED',
    data: NotificationSettings,
    handler: async (_req, ctx) => ({
      data: await getNotificationSettings(ctx.db, ctx.principal, deps.emailAvailable),
    }),
  });

  routes.write({
    method: 'PATCH',
    url: '/api/v1/notification-settings',
    operationId: 'updateNotificationSettings',
    tags: TAGS,
    summary: "Change the caller's notification settings",
    description:
      'The sent fields change, the others stay; `kinds` switches the kinds it names. ' +
      '`followed_room_ids` replaces the list (rooms of the workspace, else 422); ' +
      '`time_zone` is an IANA name (422 otherwise).',
    scope: 'write:notifications',
    failureCode: 'NOTIFICATION_UPDATE_FAILED',
    body: UpdateNotificationSettingsBody,
    data: NotificationSettings,
    handler: async (req, ctx) => ({
      data: await updateNotificationSettings(
        ctx.trx,
        ctx.principal,
        req.body,
        deps.emailAvailable,
        ctx.now,
      ),
    }),
  });
}
