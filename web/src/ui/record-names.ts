import { useEffect, useState } from 'preact/hooks';
import { api, call } from '../api/client';

/** A plant or explant a list names on its rows. */
export interface RecordRef {
  readonly kind: 'plant' | 'explant';
  readonly id: string;
}

/**
 * The names read so far, for the console's life: a list that names the same culture
 * on many rows, or again on its next page, reads it once.
 */
const known = new Map<string, Promise<string | null>>();

function nameOf(ref: RecordRef): Promise<string | null> {
  let name = known.get(ref.id);
  if (name === undefined) {
    name =
      ref.kind === 'plant'
        ? call(api.GET('/api/v1/plants/{id}', { params: { path: { id: ref.id } } })).then((a) =>
            a.ok ? a.data.name : null,
          )
        : call(api.GET('/api/v1/explants/{id}', { params: { path: { id: ref.id } } })).then((a) =>
            a.ok ? (a.data.label ?? a.data.external_id ?? null) : null,
          );
    // A failed read is tried again next time, not remembered.
    void name.then((read) => read === null && known.delete(ref.id));
    known.set(ref.id, name);
  }
  return name;
}

/** Every name of `refs` as read: a plant's name, an explant's label. */
export async function recordNames(refs: readonly RecordRef[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  await Promise.all(
    refs.map(async (ref) => {
      const name = await nameOf(ref);
      if (name !== null) names.set(ref.id, name);
    }),
  );
  return names;
}

/**
 * The names of the plants and explants a list shows, by id: empty at first, filled
 * as they are read (each record once), so the rows show before the names do.
 */
export function useRecordNames(refs: readonly RecordRef[]): ReadonlyMap<string, string> {
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  const key = refs.map((ref) => ref.id).join();
  useEffect(() => {
    let current = true;
    void recordNames(refs).then((read) => {
      if (current) setNames(read);
    });
    return () => {
      current = false;
    };
  }, [key]);
  return names;
}
