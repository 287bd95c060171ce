import type { Db, Trx } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import type { Principal } from '../../kernel/principal.js';
import { getMember } from '../identity/index.js';
import { hasRoom } from '../lab/index.js';
import { saveSettings, settingsOf } from './notifications.repository.js';
import type {
  NotificationSettingsRecord,
  UpdateNotificationSettingsInput,
} from './notifications.schemas.js';
import { memberOf } from './notifications.service.js';
import { isTimeZone, presentSettings, settingsOfRow, type PersonSettings } from './settings.js';

/** A member's settings (the defaults until they change one). */
export async function settingsOfMember(
  db: Db,
  workspaceId: string,
  memberId: string,
): Promise<PersonSettings> {
  const [row] = await settingsOf(db, workspaceId, [memberId]);
  return settingsOfRow(row);
}

/** Every member's settings in the workspace, by member (the defaults where none are stored). */
export async function settingsByMember(
  db: Db,
  workspaceId: string,
): Promise<(memberId: string) => PersonSettings> {
  const rows = new Map((await settingsOf(db, workspaceId)).map((row) => [row.member_id, row]));
  return (memberId) => settingsOfRow(rows.get(memberId));
}

/** The caller's notification settings; `emailAvailable`: whether the server sends email. */
export async function getNotificationSettings(
  db: Db,
  principal: Principal,
  emailAvailable: boolean,
): Promise<NotificationSettingsRecord> {
  const memberId = memberOf(principal);
  const settings = await settingsOfMember(db, principal.workspaceId, memberId);
  const member = await getMember(db, memberId);
  return presentSettings(settings, { address: member.email, available: emailAvailable });
}

/** Stores a member's settings whole. */
export async function storeSettings(
  trx: Trx,
  workspaceId: string,
  memberId: string,
  settings: PersonSettings,
  now: string,
): Promise<void> {
  await saveSettings(trx, {
    member_id: memberId,
    workspace_id: workspaceId,
    muted_kinds: JSON.stringify([...settings.muted]),
    follow_all_rooms: settings.followAllRooms ? 1 : 0,
    room_ids: JSON.stringify([...settings.roomIds]),
    email: settings.email ? 1 : 0,
    time_zone: settings.timeZone,
    updated_at: now,
  });
}

/**
 * Changes the caller's settings: the sent fields change, the others stay; `kinds`
 * switches the kinds it names. Rooms must be the workspace's and the time zone one
 * this server knows (422, and nothing changes).
 */
export async function updateNotificationSettings(
  trx: Trx,
  principal: Principal,
  input: UpdateNotificationSettingsInput,
  emailAvailable: boolean,
  now: string,
): Promise<NotificationSettingsRecord> {
  const memberId = memberOf(principal);
  const workspaceId = principal.workspaceId;
  const current = await settingsOfMember(trx, workspaceId, memberId);
  if (input.time_zone !== undefined && !isTimeZone(input.time_zone)) {
    throw errors.validation('time_zone: not a time zone this server knows (e.g. Europe/Paris)');
  }
  for (const [i, roomId] of (input.followed_room_ids ?? []).entries()) {
    if (!(await hasRoom(trx, workspaceId, roomId))) {
      throw errors.validation(`followed_room_ids[${i}]: no room with this id in the workspace`);
    }
  }
  const muted = new Set(current.muted);
  for (const [kind, on] of Object.entries(input.kinds ?? {})) {
    if (on === undefined) continue;
    if (on) muted.delete(kind as never);
    else muted.add(kind as never);
  }
  await storeSettings(
    trx,
    workspaceId,
    memberId,
    {
      muted,
      followAllRooms: input.follow_all_rooms ?? current.followAllRooms,
      roomIds:
        input.followed_room_ids === undefined ? current.roomIds : new Set(input.followed_room_ids),
      email: input.email ?? current.email,
      timeZone: input.time_zone ?? current.timeZone,
    },
    now,
  );
  return getNotificationSettings(trx, principal, emailAvailable);
}
