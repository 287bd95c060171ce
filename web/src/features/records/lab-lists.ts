import { api, call, type Failure, type Schemas } from '../../api/client';
import { useLoaded } from '../../ui/answer';
import type { CustomField } from './custom-inputs';
import type { Kind, StageOption } from './page/context';

/** What a form that makes a plant or explant offers: the lab's stages, rooms and own fields. */
export interface LabLists {
  readonly stages: readonly StageOption[];
  readonly rooms: readonly Schemas['Room'][];
  readonly fields: readonly CustomField[];
}

/** The lab's lists for a new record of `kind`: null while they load, else them or the refusal. */
export function useLabLists(kind: Kind): { lists: LabLists } | { failure: Failure } | null {
  return useLoaded(async () => {
    const [stages, rooms, fields] = await Promise.all([
      call(api.GET('/api/v1/stage-lists')),
      call(api.GET('/api/v1/rooms', { params: { query: { limit: 200 } } })),
      call(api.GET('/api/v1/custom-fields')),
    ]);
    if (!stages.ok) return { failure: stages.failure };
    if (!rooms.ok) return { failure: rooms.failure };
    if (!fields.ok) return { failure: fields.failure };
    return {
      lists: { stages: stages.data[kind], rooms: rooms.data, fields: fields.data[kind] },
    };
  }, [kind]);
}
