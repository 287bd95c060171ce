import { api, call } from '../../api/client';
import { useLoaded } from '../../ui/answer';
import type { StockLot } from './model';

/** Lots read per item: the newest 100 of each, which covers what a lab keeps open. */
const LOTS_PER_ITEM = 100;

/**
 * The lots of some stock items, by item id (an item whose lots cannot be read has
 * none); null while they load. Read again when the items change or `version` does.
 */
export function useLotsOf(
  itemIds: readonly string[],
  version = 0,
): ReadonlyMap<string, readonly StockLot[]> | null {
  const key = [...new Set(itemIds)].sort().join();
  return useLoaded(async () => {
    const ids = key === '' ? [] : key.split(',');
    const answers = await Promise.all(
      ids.map((id) =>
        call(
          api.GET('/api/v1/stock-items/{id}/lots', {
            params: { path: { id }, query: { limit: LOTS_PER_ITEM } },
          }),
        ),
      ),
    );
    return new Map(ids.map((id, i) => [id, answers[i]!.ok ? answers[i]!.data : []] as const));
  }, [key, version]);
}
