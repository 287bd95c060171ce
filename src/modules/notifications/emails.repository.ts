import { bulkInsert } from '../../db/bulk-insert.js';
import type { Trx } from '../../db/database.js';
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
