import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Answer, Failure } from '../api/client';
import { isStale, useBackOnline } from '../api/cache-status';

export interface PagedList<T> {
  readonly items: readonly T[];
  readonly loading: boolean;
  readonly failure: Failure | null;
  /** Whether another page follows (the API gave a cursor). */
  readonly more: boolean;
  loadMore: () => Promise<void>;
  /** Starts again from the first page (after a change). */
  reload: () => Promise<void>;
  /** Puts a changed or new item in place, without a reload. */
  upsert: (item: T, first?: boolean) => void;
  /** Takes an item out (it moved to another list), without a reload. */
  remove: (id: string) => void;
}

/**
 * A list read page by page, by cursor ("More"), never all at once. `fetchPage`
 * gets the cursor of the next page (null for the first).
 */
export function usePagedList<T extends { id: string }>(
  fetchPage: (cursor: string | null) => Promise<Answer<T[]>>,
  deps: readonly unknown[] = [],
): PagedList<T> {
  const [items, setItems] = useState<readonly T[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [failure, setFailure] = useState<Failure | null>(null);
  // The first page kept on this device (offline), or none for want of a connection.
  const [stale, setStale] = useState(false);

  const load = useCallback(async (from: string | null, keep: readonly T[]) => {
    setLoading(true);
    const answer = await fetchPage(from);
    setLoading(false);
    if (from === null) setStale(isStale(answer));
    if (!answer.ok) {
      setFailure(answer.failure);
      return;
    }
    setFailure(null);
    setItems([...keep, ...answer.data]);
    setCursor(answer.nextCursor);
  }, deps);

  useEffect(() => {
    void load(null, []);
  }, [load]);
  useBackOnline(stale, () => void load(null, []));

  return {
    items,
    loading,
    failure,
    more: cursor !== null,
    loadMore: () => load(cursor, items),
    reload: () => load(null, []),
    upsert: (item, first = false) =>
      setItems((current) =>
        current.some((x) => x.id === item.id)
          ? current.map((x) => (x.id === item.id ? item : x))
          : first
            ? [item, ...current]
            : [...current, item],
      ),
    remove: (id) => setItems((current) => current.filter((x) => x.id !== id)),
  };
}
