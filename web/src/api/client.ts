import createClient from 'openapi-fetch';
import type { components, paths } from './schema';
import { Queued, queueWrites } from '../offline/queue';
import { strings } from './strings';

/** The API's named shapes (Member, ApiKey, Device, Session, …), as its OpenAPI document says. */
export type Schemas = components['schemas'];

/**
 * The console talks to the API only through this client, typed from Vitro's own
 * OpenAPI document: a change of the API that breaks a screen fails the type check.
 * Same origin, so the browser sends the session cookie (HttpOnly: no script reads it).
 * Its answers are read as JSON: lists may also answer text/csv (exports), which the
 * console asks for by a link, not through this client.
 */
export const api = createClient<paths, 'application/json'>({
  baseUrl: '',
  credentials: 'same-origin',
});
// Bench writes made offline wait in the write queue (offline/queue.ts).
api.use(queueWrites);

/** A refusal in the API's own words (`error`), with its catalogue `code`. */
export interface Failure {
  readonly status: number;
  readonly code: string;
  readonly error: string;
}

export type Answer<T> =
  | {
      readonly ok: true;
      readonly data: T;
      readonly nextCursor: string | null;
      /** The answer's `meta` as sent (a list's counts), when it had one. */
      readonly meta?: unknown;
      /** Offline: when this answer, kept on this device, was read from the server (ISO). */
      readonly asOf?: string;
    }
  | { readonly ok: false; readonly failure: Failure };

interface Envelope<T> {
  data: T;
  meta?: unknown;
}

/** Marks an answer the console kept on this device (web/src/offline/), not one the server just gave. */
export const SAVED_AT_HEADER = 'x-vitro-saved-at';

const OFFLINE: Failure = {
  status: 0,
  code: 'NETWORK',
  error: strings.offline,
};

/** A bench write kept on this device: it is sent, in order, when the connection returns. */
export const QUEUED: Failure = {
  status: 0,
  code: 'QUEUED',
  error: strings.queued,
};

/** Listeners told when the API says the session has ended (401). */
const signedOutListeners = new Set<() => void>();
export function onSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/** Listeners told whether the server answered the latest call (false: out of reach). */
const reachListeners = new Set<(reached: boolean) => void>();
export function onReach(listener: (reached: boolean) => void): () => void {
  reachListeners.add(listener);
  return () => reachListeners.delete(listener);
}
const reached = (yes: boolean) => {
  for (const listener of reachListeners) listener(yes);
};

/**
 * One API call as an answer: its data, or the failure the API gave (a network
 * failure included; QUEUED for a bench write kept to send later), never a thrown error. A 401 tells the app the session ended;
 * whether the server answered at all is told to `onReach` listeners.
 */
export async function call<T>(
  pending: Promise<{ data?: Envelope<T>; error?: unknown; response: Response }>,
): Promise<Answer<T>> {
  let result: Awaited<typeof pending>;
  try {
    result = await pending;
  } catch (error) {
    if (error instanceof Queued) return { ok: false, failure: QUEUED };
    reached(false);
    return { ok: false, failure: OFFLINE };
  }
  const { data, error, response } = result;
  const asOf = response.headers.get(SAVED_AT_HEADER);
  reached(asOf === null);
  if (data !== undefined && response.ok) {
    const meta = data.meta as { next_cursor?: string | null } | undefined;
    const nextCursor = meta?.next_cursor ?? null;
    return { ok: true, data: data.data, nextCursor, meta: data.meta, ...(asOf ? { asOf } : {}) };
  }
  const body = (error ?? {}) as { error?: unknown; code?: unknown };
  const failure: Failure = {
    status: response.status,
    code: typeof body.code === 'string' ? body.code : 'HTTP_' + String(response.status),
    error:
      typeof body.error === 'string'
        ? body.error
        : strings.answered(response.status, response.statusText),
  };
  if (response.status === 401 && !response.url.endsWith('/api/v1/session')) {
    for (const listener of signedOutListeners) listener();
  }
  return { ok: false, failure };
}

/**
 * A fresh Idempotency-Key. Built from getRandomValues, which (unlike
 * crypto.randomUUID) also works on a plain-http lab address.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return 'console-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
