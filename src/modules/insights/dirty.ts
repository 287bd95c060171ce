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
      // A new row each time, never an upsert of a shared one: the drain deletes the
      // marks it takes at the start of its round, and a write whose mark met one of
      // those would wait (holding the lab's event sequence, so every write of the lab
      // would) until the round commits. A mark made while a round runs stays for the
      // next.
      await t
        .insertInto('insight_dirty')
        .values([...ids].sort().map((id) => ({ workspace_id: workspaceId, explant_id: id })))
        .execute();
    },
  );
  for (const id of explantIds) changed.add(id);
}
