import type { Trx } from '../../db/database.js';
import { newId } from '../../kernel/ids.js';
import { listMembers } from '../identity/index.js';
import { insertEmails, type EmailRow } from './emails.repository.js';
import {
  insertNotifications,
  settingsOf,
  type NotificationRow,
} from './notifications.repository.js';
import { IMMEDIATE_KINDS, LABEL_MAX, type NotificationKind } from './notifications.schemas.js';
import { followsRoom, settingsOfRow, type PersonSettings } from './settings.js';

/** What happened, to tell people of. */
export interface Notice {
  readonly kind: NotificationKind;
  /**
   * What caused it, the same for everyone told (`comment:<id>`, `alert_opened:<id>`):
   * a person is told of one event once, whatever repeats it.
   */
  readonly eventKey: string;
  readonly record: { readonly type: string; readonly id: string; readonly label: string };
  readonly roomId?: string | null;
  readonly commentId?: string | null;
  /** The member who did it: never told of it. */
  readonly actorId: string | null;
}

/**
 * Whom to tell: these members, or everyone following a room (`room`: the room, or
 * null for a record in no room, which those who follow every room follow).
 */
export type Audience = { readonly members: readonly string[] } | { readonly room: string | null };

export type Addressed = Notice & { readonly to: Audience };

interface Person {
  readonly id: string;
  readonly email: string | null;
  readonly settings: PersonSettings;
}

/**
 * Makes the notifications of some events in the caller's transaction, so they
 * commit with the events: one per event and person told (a repeat is skipped), none
 * for the person who did it, none of a kind the person switched off. The kinds
 * emailed at once are queued for the email worker with them (sent after commit,
 * when SMTP_URL is set). Answers how many notifications were made or found.
 */
export async function notify(
  trx: Trx,
  workspaceId: string,
  notices: readonly Addressed[],
  now: string,
): Promise<number> {
  if (notices.length === 0) return 0;
  const people = await peopleOf(trx, workspaceId);
  const rows: NotificationRow[] = [];
  const emails: EmailRow[] = [];
  const told = new Set<string>();
  for (const notice of notices) {
    for (const person of recipients(people, notice)) {
      // The first notice of an event for a person wins (a mention over a reply).
      const key = `${person.id} ${notice.eventKey}`;
      if (told.has(key)) continue;
      told.add(key);
      rows.push({
        id: newId(),
        workspace_id: workspaceId,
        member_id: person.id,
        kind: notice.kind,
        event_key: notice.eventKey,
        record_type: notice.record.type,
        record_id: notice.record.id,
        record_label: notice.record.label.slice(0, LABEL_MAX),
        room_id: notice.roomId ?? null,
        comment_id: notice.commentId ?? null,
        actor_id: notice.actorId,
        created_at: now,
        read_at: null,
      });
      if (IMMEDIATE_KINDS.has(notice.kind) && person.settings.email && person.email !== null) {
        emails.push(immediateEmail(workspaceId, person.id, notice.eventKey, now));
      }
    }
  }
  await insertNotifications(trx, rows);
  await insertEmails(trx, emails);
  return rows.length;
}

/** The workspace's active members with their settings. */
async function peopleOf(trx: Trx, workspaceId: string): Promise<Person[]> {
  const [members, stored] = await Promise.all([
    listMembers(trx, workspaceId),
    settingsOf(trx, workspaceId),
  ]);
  const byMember = new Map(stored.map((row) => [row.member_id, row]));
  return members
    .filter((member) => member.status === 'active')
    .map((member) => ({
      id: member.id,
      email: member.email,
      settings: settingsOfRow(byMember.get(member.id)),
    }));
}

function recipients(people: readonly Person[], notice: Addressed): Person[] {
  const to = notice.to;
  const named = 'members' in to ? new Set(to.members) : null;
  return people.filter(
    (person) =>
      person.id !== notice.actorId &&
      !person.settings.muted.has(notice.kind) &&
      (named !== null
        ? named.has(person.id)
        : followsRoom(person.settings, (to as { room: string | null }).room)),
  );
}

function immediateEmail(
  workspaceId: string,
  memberId: string,
  eventKey: string,
  now: string,
): EmailRow {
  return pendingEmail(
    workspaceId,
    memberId,
    { kind: 'immediate', dedupe_key: eventKey, period_start: null, period_end: null },
    now,
  );
}

/** An email to send at once (`now`), not yet tried: an event's or a day's digest. */
export function pendingEmail(
  workspaceId: string,
  memberId: string,
  what: Pick<EmailRow, 'kind' | 'dedupe_key' | 'period_start' | 'period_end'>,
  now: string,
): EmailRow {
  return {
    id: newId(),
    workspace_id: workspaceId,
    member_id: memberId,
    ...what,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    lease_owner: null,
    last_error: null,
    created_at: now,
    sent_at: null,
  };
}
