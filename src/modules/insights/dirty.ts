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
        // Updated, not left alone, when already marked: on PostgreSQL the mark is then
        // locked until this commits, so a drain taking it waits and reads this write.
        .onConflict((oc) =>
          oc
            .columns(['workspace_id', 'explant_id'])
            .doUpdateSet((eb) => ({ explant_id: eb.ref('excluded.explant_id') })),
        )
        .execute();
    },
  );
  for (const id of explantIds) changed.add(id);
}
