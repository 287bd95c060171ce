import Type, { type Static } from 'typebox';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

/** What a person can be told of. */
export const NOTIFICATION_KINDS = [
  'mention',
  'reply',
  'task_assigned',
  'task_due_today',
  'task_overdue',
  'transfer_due',
  'alert_opened',
  'alert_resolved',
  'contamination',
  'recall',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Kinds emailed at once; the others wait for the day's digest. */
export const IMMEDIATE_KINDS: ReadonlySet<NotificationKind> = new Set<NotificationKind>([
  'mention',
  'alert_opened',
  'alert_resolved',
]);

/** What a record's label may hold, in characters (longer ones are cut). */
export const LABEL_MAX = 200;
export const MARK_MAX = 500;
/** The unread count stops counting here (the bell shows "999+"). */
export const UNREAD_COUNT_MAX = 1000;

export const NotificationRecordRef = Type.Object({
  type: Type.String({
    description:
      'plant, explant, contamination, task, media_recipe, sop or sensor_alert (the kinds of record a notification can be about)',
  }),
  id: Uuid(),
  label: Type.String({ description: "The record's name when the notification was made" }),
});

export const Notification = Type.Object(
  {
    id: Uuid(),
    kind: StringEnum(NOTIFICATION_KINDS),
    record: NotificationRecordRef,
    room_id: Nullable(Uuid({ description: 'The room it happened in, when it has one' })),
    comment_id: Nullable(Uuid({ description: 'The comment of a mention or reply' })),
    actor_id: Nullable(
      Uuid({ description: 'The member whose action caused it; null for the lab itself' }),
    ),
    created_at: Type.String(),
    read_at: Nullable(Type.String()),
  },
  { $id: 'Notification' },
);
export type NotificationRecord = Static<typeof Notification>;

export const NotificationQuery = Type.Object({
  unread: Type.Optional(Type.Boolean({ description: 'true: only notifications not read yet' })),
});

export const NotificationListMeta = Type.Object({
  unread_count: Type.Integer({
    minimum: 0,
    maximum: UNREAD_COUNT_MAX,
    description: `The caller's unread notifications, counted up to ${UNREAD_COUNT_MAX}`,
  }),
});

export const MarkReadBody = Type.Object(
  {
    ids: Type.Optional(
      Type.Array(Uuid(), {
        minItems: 1,
        maxItems: MARK_MAX,
        uniqueItems: true,
        description: "Notifications of the caller's own (422 for any other id)",
      }),
    ),
    all: Type.Optional(
      Type.Boolean({ description: 'true: every unread notification of the caller' }),
    ),
  },
  { additionalProperties: false },
);

export const MarkReadResult = Type.Object({
  marked: Type.Integer({ minimum: 0, description: 'Notifications read by this request' }),
  unread_count: NotificationListMeta.properties.unread_count,
});

/** Some kinds switched on or off; the others stay as they are. */
const KindSwitches = Type.Object(
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, Type.Optional(Type.Boolean())])),
  { additionalProperties: false },
);

export const NotificationSettings = Type.Object(
  {
    kinds: Type.Object(
      Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, Type.Boolean()])),
      { description: 'Each kind, on (told) or off' },
    ),
    follow_all_rooms: Type.Boolean({
      description: 'true: every room is followed, and records in no room too',
    }),
    followed_room_ids: Type.Array(Uuid(), {
      description: 'The rooms followed when follow_all_rooms is false',
    }),
    email: Type.Boolean({ description: 'Whether notifications are also sent by email' }),
    email_address: Nullable(
      Type.String({ description: "The member's email address, where emails go (null: none)" }),
    ),
    email_available: Type.Boolean({
      description: 'Whether this server sends email (SMTP_URL is set)',
    }),
    time_zone: Type.String({
      description: 'IANA time zone: when a day starts for due today and the daily digest',
    }),
  },
  { $id: 'NotificationSettings' },
);
export type NotificationSettingsRecord = Static<typeof NotificationSettings>;

export const UpdateNotificationSettingsBody = Type.Object(
  {
    kinds: Type.Optional(KindSwitches),
    follow_all_rooms: Type.Optional(Type.Boolean()),
    followed_room_ids: Type.Optional(
      Type.Array(Uuid(), {
        maxItems: 200,
        uniqueItems: true,
        description: 'Rooms of the workspace (422 otherwise); replaces the list',
      }),
    ),
    email: Type.Optional(Type.Boolean()),
    time_zone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'IANA time zone, e.g. Europe/Paris',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateNotificationSettingsInput = Static<typeof UpdateNotificationSettingsBody>;
