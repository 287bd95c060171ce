import type { Middleware } from 'openapi-fetch';
import { api, SAVED_AT_HEADER } from './client';
import {
  answerKey,
  LABEL_CODES_PATH,
  RESOLVE_PATH,
  SESSION_PATH,
  SIGN_OUT_PATHS,
} from './cache-keys';
import { labelsOf, recordOf, recordPath, resolution } from './cache-labels';
import { ReadStore, type SavedAnswer } from './cache-store';
import { servedFromCache } from './cache-status';

/** The store, opened once; null where the browser keeps no IndexedDB (nothing is kept then). */
let opened: Promise<ReadStore | null> | null = null;
const readStore = () => (opened ??= ReadStore.open().catch(() => null));

/** The store's work, one after another: a sign-out's clearing is never overtaken by a keep. */
let queue: Promise<unknown> = Promise.resolve();
function serially<T>(work: (store: ReadStore) => Promise<T>): Promise<T | null> {
  const next = queue.then(async () => {
    const store = await readStore();
    return store === null ? null : work(store);
  });
  queue = next.catch(() => undefined);
  return next.catch(() => null);
}

/** Drops every read kept on this device: signed out, here or by the server (401). */
export function forgetReads(): Promise<unknown> {
  return serially((store) => store.clear());
}

const ownerOf = (body: string): string | null => {
  const data = (
    JSON.parse(body) as { data?: { member?: { id?: unknown }; workspace?: { id?: unknown } } }
  ).data;
  const member = data?.member?.id;
  const workspace = data?.workspace?.id;
  return typeof member === 'string' && typeof workspace === 'string'
    ? `${member}@${workspace}`
    : null;
};

/** Keeps a read of the signed-in person's, and the label codes it tells. */
function keep(url: URL, key: string, body: string, savedAt: number): Promise<unknown> {
  return serially(async (store) => {
    if (url.pathname === SESSION_PATH) {
      const owner = ownerOf(body);
      if (owner === null) return;
      await store.claim(owner);
    } else if ((await store.owner()) === null) {
      // Nobody is known to be signed in (the session ended meanwhile): nothing is kept.
      return;
    }
    await store.putLabels(labelsOf(url, body, savedAt));
    if (key !== '') await store.put({ key, body, savedAt });
    const record = recordOf(url);
    if (record !== null && record.kind !== 'media_batch') wantCodes(record.kind, record.id);
  });
}

/** Records kept lately whose printed codes are still to be asked for. */
const codesWanted = { plant: new Set<string>(), explant: new Set<string>() };
let codesTimer: ReturnType<typeof setTimeout> | null = null;

/**
 * Asks, a moment after records are kept, for the codes printed on their labels
 * (GET /labels/codes: an imported label's barcode is not in the record), so that
 * scanning such a label offline opens the kept record.
 */
function wantCodes(kind: 'plant' | 'explant', id: string): void {
  codesWanted[kind].add(id);
  codesTimer ??= setTimeout(() => {
    codesTimer = null;
    const ids = (of: 'plant' | 'explant') => {
      const list = [...codesWanted[of]].slice(0, MAX_CODES_ASKED);
      codesWanted[of].clear();
      return list.length === 0 ? {} : { [`${of}_ids`]: list.join(',') };
    };
    // The answer is kept as labels by `readCache` below; a refusal (no labels scope) keeps nothing.
    const query = { ...ids('plant'), ...ids('explant') };
    api.GET(LABEL_CODES_PATH, { params: { query } }).catch(() => undefined);
  }, 1000);
}

/** The most records one GET /labels/codes names is 240; half each way is plenty for a moment's reads. */
const MAX_CODES_ASKED = 120;

/** A session kept past its end answers nothing offline: the console shows the sign-in. */
const ended = (saved: SavedAnswer, now: number) => {
  const expires = (JSON.parse(saved.body) as { data?: { expires_at?: unknown } }).data?.expires_at;
  return typeof expires === 'string' && Date.parse(expires) <= now;
};

/** The kept answer of a read, marked with when it was read; null when none is kept. */
async function fromCache(request: Request): Promise<Response | null> {
  const url = new URL(request.url);
  const key = answerKey(request.url);
  if (key === null) return null;
  const now = Date.now();
  const saved = await serially(async (store): Promise<SavedAnswer | null> => {
    if ((await store.owner()) === null) return null;
    const found = await store.get(key, now);
    if (found !== null || url.pathname !== RESOLVE_PATH) return found;
    // A label scanned offline: the kept record it names, when it is kept.
    const barcode = url.searchParams.get('barcode') ?? '';
    const label = await store.label(barcode, now);
    if (label === null) return null;
    const record = await store.get(recordPath(label.recordType, label.recordId), now);
    if (record === null) return null;
    return { key, body: resolution(barcode, label, url.origin), savedAt: record.savedAt };
  });
  if (saved === null || (url.pathname === SESSION_PATH && ended(saved, now))) return null;
  servedFromCache(saved.savedAt);
  return new Response(saved.body, {
    status: 200,
    headers: {
      'content-type': 'application/json',
      [SAVED_AT_HEADER]: new Date(saved.savedAt).toISOString(),
    },
  });
}

/** A gateway in front of Vitro answering for it: the server itself is out of reach. */
const GATEWAY_DOWN = new Set([502, 504]);

/**
 * The console's reads kept for offline use, as middleware of its one API client:
 * every GET the server answers is kept (within the caps of `ReadStore`), and a GET
 * the server cannot be reached for answers what was kept, marked with the time it
 * was read (`SAVED_AT_HEADER`, the answer's `asOf`). Signing out, or the server
 * saying the session ended, drops everything kept; so does another person's sign-in.
 */
export const readCache: Middleware = {
  async onRequest({ request }) {
    const path = new URL(request.url).pathname;
    if (request.method === 'DELETE' && SIGN_OUT_PATHS.has(path)) await forgetReads();
    return undefined;
  },
  async onResponse({ request, response }) {
    if (response.headers.has(SAVED_AT_HEADER)) return undefined;
    if (response.status === 401) {
      await forgetReads();
      return undefined;
    }
    const url = new URL(request.url);
    if (request.method === 'GET' && GATEWAY_DOWN.has(response.status)) {
      return (await fromCache(request)) ?? undefined;
    }
    const json = (response.headers.get('content-type') ?? '').includes('json');
    if (!response.ok || !json) return undefined;
    let key: string | null;
    if (request.method === 'POST' && url.pathname === SESSION_PATH) {
      // A sign-in answers the session: kept as the session's read.
      key = SESSION_PATH;
    } else if (request.method !== 'GET' || request.headers.has('authorization')) {
      // A read with a credential of its own (a sign-in link's check) is not the session's.
      return undefined;
    } else {
      key = answerKey(request.url);
      if (key === null && url.pathname !== LABEL_CODES_PATH) return undefined;
    }
    void keep(url, key ?? '', await response.clone().text(), Date.now());
    return undefined;
  },
  async onError({ request }) {
    if (request.method !== 'GET') return undefined;
    return (await fromCache(request)) ?? undefined;
  },
};
