import { api, call, type Failure, type Schemas } from '../../api/client';
import { useLoaded } from '../../ui/answer';
import { isStale } from '../../api/cache-status';
import type { CustomField } from './custom-inputs';
import type { Kind, StageOption } from './page/context';

/** What a form that makes a plant or explant offers: the lab's stages, rooms and own fields. */
export interface LabLists {
  readonly stages: readonly StageOption[];
  readonly rooms: readonly Schemas['Room'][];
  readonly fields: readonly CustomField[];
}

type Loaded = ({ lists: LabLists } | { failure: Failure }) & { readonly stale: boolean };

/**
 * The lab's lists for a new record of `kind`: null while they load, else them or the
 * refusal; read again once the connection is back when they were this device's.
 */
export function useLabLists(kind: Kind): Loaded | null {
  return useLoaded(
    async (): Promise<Loaded> => {
      const answers = await Promise.all([
        call(api.GET('/api/v1/stage-lists')),
        call(api.GET('/api/v1/rooms', { params: { query: { limit: 200 } } })),
        call(api.GET('/api/v1/custom-fields')),
      ]);
      const stale = answers.some(isStale);
      const [stages, rooms, fields] = answers;
      if (!stages.ok) return { failure: stages.failure, stale };
      if (!rooms.ok) return { failure: rooms.failure, stale };
      if (!fields.ok) return { failure: fields.failure, stale };
      return {
        lists: { stages: stages.data[kind], rooms: rooms.data, fields: fields.data[kind] },
        stale,
      };
    },
    [kind],
    (loaded) => loaded.stale,
  );
}
