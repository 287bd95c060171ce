import Type, { type Static } from 'typebox';
import type { Trx } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import type { Principal } from '../../kernel/principal.js';
import { recordChangeEvent } from '../events/index.js';
import { setDocumentArchived } from '../search/index.js';
import { requireMayChange } from './ownership.js';
import type { TrackedKind, TrackedRow } from './tracked.js';

/** The body of an archive or unarchive (optional). */
export const ArchiveBody = Type.Object(
  {
    reason: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description: 'Why, for the change history (the event payload)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ArchiveInput = Static<typeof ArchiveBody>;

/**
 * Archives (or brings back) a plant or explant made by mistake: it leaves the
 * lists unless they ask for archived records, reads by id still answer it (with
 * `archived_at`), and the change history keeps everything, an `archived` or
 * `unarchived` event included. Like an edit, another member's record needs a
 * manager. Archiving an archived record (or bringing back one that is not)
 * changes nothing and records nothing.
 */
export async function setArchived<Row extends TrackedRow, K extends keyof Row & string, Out, C>(
  trx: Trx,
  kind: TrackedKind<Row, K, Out, C>,
  principal: Principal,
  id: string,
  change: { archive: boolean; reason: string | null },
  now: string,
): Promise<Out> {
  const workspaceId = principal.workspaceId;
  const row = await kind.table.lock(trx, workspaceId, id);
  if (row === undefined) {
    throw errors.notFound(kind.noun[0]!.toUpperCase() + kind.noun.slice(1));
  }
  requireMayChange(principal, kind.noun, row.created_by, {
    code: kind.editRefusal.code,
    action: change.archive ? 'archiving it' : 'bringing it back from the archive',
  });
  const context = await kind.context(trx, workspaceId);
  if ((row.archived_at !== null) === change.archive) return kind.present(row, context);
  const update = {
    archived_at: change.archive ? now : null,
    archived_by: change.archive ? principal.memberId : null,
    updated_at: now,
  } as Partial<Row>;
  await kind.table.update(trx, workspaceId, id, update);
  await setDocumentArchived(trx, workspaceId, kind.entity, id, change.archive);
  await recordChangeEvent(trx, {
    workspaceId,
    entityType: kind.entity,
    entityId: id,
    eventType: change.archive ? 'archived' : 'unarchived',
    eventTime: now,
    recordedBy: principal.memberId,
    payload: { reason: change.reason },
  });
  return kind.present({ ...row, ...update }, context);
}
