import {
  NOTIFICATION_KINDS,
  type NotificationKind,
  type NotificationSettingsRecord,
} from './notifications.schemas.js';
import type { SettingsRow } from './notifications.repository.js';

/** A person's settings as the fan-out and the passes read them. */
export interface PersonSettings {
  readonly muted: ReadonlySet<NotificationKind>;
  readonly followAllRooms: boolean;
  readonly roomIds: ReadonlySet<string>;
  readonly email: boolean;
  readonly timeZone: string;
}

/** Everyone's until they change them: every kind, every room, email on, days in UTC. */
export const DEFAULT_SETTINGS: PersonSettings = Object.freeze({
  muted: new Set<NotificationKind>(),
  followAllRooms: true,
  roomIds: new Set<string>(),
  email: true,
  timeZone: 'UTC',
});

export function settingsOfRow(row: SettingsRow | undefined): PersonSettings {
  if (row === undefined) return DEFAULT_SETTINGS;
  return {
    muted: new Set(JSON.parse(row.muted_kinds) as NotificationKind[]),
    followAllRooms: row.follow_all_rooms === 1,
    roomIds: new Set(JSON.parse(row.room_ids) as string[]),
    email: row.email === 1,
    timeZone: row.time_zone,
  };
}

/** Whether the person follows the room; a record in no room is followed by those who follow all. */
export function followsRoom(settings: PersonSettings, roomId: string | null): boolean {
  return settings.followAllRooms || (roomId !== null && settings.roomIds.has(roomId));
}

export function presentSettings(
  settings: PersonSettings,
  email: { address: string | null; available: boolean },
): NotificationSettingsRecord {
  return {
    kinds: Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, !settings.muted.has(kind)])),
    follow_all_rooms: settings.followAllRooms,
    followed_room_ids: [...settings.roomIds],
    email: settings.email,
    email_address: email.address,
    email_available: email.available,
    time_zone: settings.timeZone,
  };
}

/** Whether `zone` is a time zone this server knows (IANA names, as Intl reads them). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
