import { bulkInsert } from '../../db/bulk-insert.js';
import type { Trx } from '../../db/database.js';
import { beforeCommit } from '../../db/transaction.js';

/** The marks of a transaction, in one statement built once (see bulkInsert). */
const marksInsert = bulkInsert('insight_dirty', {
  workspace_id: 'text',
  explant_id: 'text',
  transfer_id: 'text',
});

/**
 * What marks an explant in one transaction: the transfers added to its history, or
 * `ANY` when anything else of its records changed (its whole history is made anew).
 */
const ANY = null;
type Marks = Map<string, Set<string> | typeof ANY>;

/**
 * Marks some explants for the insights' drain (`drain.ts`): with `transferId`, because
 * that transfer was added to each one's history (the drain may then add its handling
 * alone); without, because anything else of their records changed. One statement when
 * the transaction's work is done, however many writes of it asked.
 */
export function explantsChanged(
  trx: Trx,
  workspaceId: string,
  explantIds: readonly string[],
  transferId: string | null = ANY,
): void {
  const marks = beforeCommit(
    trx,
    `insight-dirty:${workspaceId}`,
    (): Marks => new Map(),
    async (t, marked) => {
      // A new row each time, never an upsert of a shared one: the drain deletes the
      // marks it takes at the start of its round, and a write whose mark met one of
      // those would wait (holding the lab's event sequence, so every write of the lab
      // would) until the round commits. A mark made while a round runs stays for the
      // next.
      const rows = [...marked.keys()].sort().flatMap((id) => {
        const transfers = marked.get(id)!;
        return (transfers === ANY ? [ANY] : [...transfers].sort()).map((transfer) => ({
          workspace_id: workspaceId,
          explant_id: id,
          transfer_id: transfer,
        }));
      });
      await marksInsert.run(t, rows);
    },
  );
  for (const id of explantIds) {
    const transfers = marks.get(id);
    if (transferId === ANY) marks.set(id, ANY);
    else if (transfers === undefined) marks.set(id, new Set([transferId]));
    else transfers?.add(transferId);
  }
}
