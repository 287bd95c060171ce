/**
 * The writes done at the bench that wait for the connection when it is gone: each
 * by its operation (method and path as the API document names them), the body field
 * that carries the time of the work where the API has one, and the record it is about.
 * Any other write (a new member, a lab setting) is refused offline as before.
 */
export interface QueuedKind {
  readonly kind: string;
  readonly method: 'POST' | 'PATCH';
  readonly path: string;
  /** The API's field for when the work was done; absent where the API takes none. */
  readonly time?: string;
  /** The console's address of the record the write is about. */
  readonly about: (params: Params, body: Body) => string | null;
}

type Params = Readonly<Record<string, unknown>>;
type Body = Readonly<Record<string, unknown>>;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A plant's or explant's page, from a body naming `plant_id` or `explant_id`. */
function plantOrExplant(body: Body): string | null {
  const explant = text(body.explant_id);
  if (explant !== null) return `/explants/${explant}`;
  const plant = text(body.plant_id);
  return plant !== null ? `/plants/${plant}` : null;
}

/** A record's page by its kind and id (comments and photos name it so). */
function recordOf(kind: unknown, id: unknown): string | null {
  const pages: Record<string, string> = {
    plant: '/plants/',
    explant: '/explants/',
    contamination: '/contaminations/',
    task: '/tasks/',
    sop: '/sops/',
  };
  const page = typeof kind === 'string' ? pages[kind] : undefined;
  return page !== undefined && typeof id === 'string' ? page + id : null;
}

const run = (params: Params) => (typeof params.id === 'string' ? `/sop-runs/${params.id}` : null);

export const QUEUED_KINDS: readonly QueuedKind[] = [
  {
    kind: 'transfer',
    method: 'POST',
    path: '/api/v1/transfers',
    time: 'transfer_date',
    about: (_, body) => plantOrExplant(body),
  },
  {
    kind: 'split',
    method: 'POST',
    path: '/api/v1/explants/{id}/split',
    about: (params) => recordOf('explant', params.id),
  },
  {
    kind: 'stage',
    method: 'POST',
    path: '/api/v1/stages',
    time: 'entered_on',
    about: (_, body) => plantOrExplant(body),
  },
  {
    kind: 'contamination',
    method: 'POST',
    path: '/api/v1/contaminations',
    time: 'observed_at',
    about: (_, body) => plantOrExplant(body),
  },
  {
    kind: 'comment',
    method: 'POST',
    path: '/api/v1/comments',
    about: (_, body) => recordOf(body.entity_type, body.entity_id),
  },
  {
    kind: 'photo',
    method: 'POST',
    path: '/api/v1/assets',
    about: (_, body) => recordOf(body.target, body.target_id),
  },
  {
    kind: 'task',
    method: 'PATCH',
    path: '/api/v1/tasks/{id}',
    about: (params) => recordOf('task', params.id),
  },
  {
    kind: 'evidence',
    method: 'POST',
    path: '/api/v1/sop-runs/{id}/steps/{stepId}/events',
    time: 'recorded_at',
    about: run,
  },
  {
    kind: 'measurement',
    method: 'POST',
    path: '/api/v1/sop-runs/{id}/steps/{stepId}/measurements',
    time: 'recorded_at',
    about: run,
  },
  {
    kind: 'scan',
    method: 'POST',
    path: '/api/v1/label-scans',
    time: 'scanned_at',
    about: (_, body) => plantOrExplant(body),
  },
];

export function queuedKind(method: string, path: string): QueuedKind | null {
  return QUEUED_KINDS.find((k) => k.method === method && k.path === path) ?? null;
}
