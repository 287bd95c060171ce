import { bulkInsert } from '../../db/bulk-insert.js';
import type { Db, Trx } from '../../db/database.js';
import { claimDue } from '../../db/due-rows.js';
import type { NotificationEmailTable } from '../../db/schema.js';

export type EmailRow = NotificationEmailTable;

const storeEmails = bulkInsert(
  'notification_emails',
  {
    id: 'text',
    workspace_id: 'text',
    member_id: 'text',
    kind: 'text',
    dedupe_key: 'text',
    period_start: 'text',
    period_end: 'text',
    status: 'text',
    attempts: 'integer',
    next_attempt_at: 'text',
    lease_owner: 'text',
    last_error: 'text',
    created_at: 'text',
    sent_at: 'text',
  },
  { ignoreConflictOn: ['member_id', 'dedupe_key'] },
);

export const EMAIL_COLUMNS = storeEmails.columns;

/** Queues emails; one already queued for its person and key is left as it is. */
export async function insertEmails(trx: Trx, rows: readonly EmailRow[]): Promise<void> {
  await storeEmails.run(trx, rows);
}

/** Takes up to `limit` due emails for `owner` until `leaseUntil` (see `claimDue`). */
export function claimDueEmails(
  db: Db,
  owner: string,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<EmailRow[]> {
  return claimDue(db, 'notification_emails', EMAIL_COLUMNS, { owner, now, leaseUntil, limit });
}

/** Records how an attempt ended, if `owner` still holds the email. */
export async function settleEmail(
  db: Db,
  id: string,
  owner: string,
  outcome: Pick<EmailRow, 'status' | 'attempts' | 'next_attempt_at' | 'last_error' | 'sent_at'>,
): Promise<void> {
  await db
    .updateTable('notification_emails')
    .set({ ...outcome, lease_owner: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

/** Lets go of the emails `owner` holds (a stopping worker): due again at once. */
export async function releaseEmails(db: Db, owner: string, now: string): Promise<void> {
  await db
    .updateTable('notification_emails')
    .set({ lease_owner: null, next_attempt_at: now })
    .where('lease_owner', '=', owner)
    .where('status', '=', 'pending')
    .execute();
}

/** Where each member's latest digest ended, in a workspace. */
export async function lastDigests(db: Db, workspaceId: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('notification_emails')
    .select(['member_id', (eb) => eb.fn.max('period_end').as('until')])
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', 'digest')
    .groupBy('member_id')
    .execute();
  return new Map(rows.map((row) => [row.member_id, row.until as string]));
}

/**
 * Deletes sent and failed emails older than `finishedBefore`, and pending ones
 * older than `pendingBefore`: a mention is not worth an email a day later (and
 * where SMTP_URL is not set, nobody sends them).
 */
export async function purgeEmails(
  db: Db,
  before: { readonly finished: string; readonly pending: string },
): Promise<void> {
  await db
    .deleteFrom('notification_emails')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '!=', 'pending'), eb('created_at', '<', before.finished)]),
        eb.and([eb('status', '=', 'pending'), eb('created_at', '<', before.pending)]),
      ]),
    )
    .execute();
}
