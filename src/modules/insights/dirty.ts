import type { Trx } from '../../db/database.js';
import { beforeCommit } from '../../db/transaction.js';

/**
 * Some explants' records changed in this transaction: they are marked for the
 * insights' drain (`drain.ts`) to make their kept handlings anew, with one statement
 * when the transaction's work is done however many writes of it asked.
 */
export function explantsChanged(
  trx: Trx,
  workspaceId: string,
  explantIds: readonly string[],
): void {
  const changed = beforeCommit(
    trx,
    `insight-dirty:${workspaceId}`,
    () => new Set<string>(),
    async (t, ids) => {
      await t
        .insertInto('insight_dirty')
        .values([...ids].sort().map((id) => ({ workspace_id: workspaceId, explant_id: id })))
        .onConflict((oc) => oc.columns(['workspace_id', 'explant_id']).doNothing())
        .execute();
    },
  );
  for (const id of explantIds) changed.add(id);
}
