import {
  markTried,
  moveToAttention,
  removeWaiting,
  firstWaiting,
  type QueuedWrite,
  type Refusal,
} from './queue-store';

/**
 * Sending the queue, with no page needed: a service worker's `sync` event may call
 * `sendWaiting` as the page does (it uses fetch, IndexedDB and a BroadcastChannel
 * only). Its tag for Background Sync is SYNC_TAG.
 */
export const SYNC_TAG = 'vitro-writes';
/** Where every page (and a service worker) says the queue changed. */
export const CHANNEL = 'vitro-writes';

/** How a round of sending ended: all sent, or stopped with the rest kept for later. */
export type Round =
  | { readonly done: true }
  | { readonly done: false; readonly tries: number; readonly signedOut: boolean };

/** Answers that say "not now" rather than "no": the write stays queued and is tried again. */
function later(status: number, code: string): boolean {
  return status >= 500 || status === 408 || status === 429 || code === 'IDEMPOTENCY_IN_FLIGHT';
}

async function refusalOf(response: Response): Promise<Refusal> {
  const body = (await response.json().catch(() => ({}))) as { error?: unknown; code?: unknown };
  return {
    status: response.status,
    code: typeof body.code === 'string' ? body.code : `HTTP_${response.status}`,
    error:
      typeof body.error === 'string' ? body.error : `${response.status} ${response.statusText}`,
  };
}

/** Tells every page (this one too) that the queue changed. */
export function told(): void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage('changed');
  channel.close();
}

/** One write as it was first sent: same address, same body, same Idempotency-Key. */
function send(write: QueuedWrite): Promise<Response> {
  return fetch(write.url, {
    method: write.method,
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', 'idempotency-key': write.key },
    body: JSON.stringify(write.body),
  });
}

/**
 * Sends the waiting writes in the order they were done, each with its own key (a
 * write the server took before its answer was lost is answered again, not made
 * twice). A refusal (4xx) moves the write to "Needs your attention" and the next
 * goes on; no answer, or the server's own trouble (5xx), stops the round with the
 * rest kept; a 401 stops it until someone signs in again.
 */
async function sendRound(by: string): Promise<Round> {
  // Writes queued while a round runs are sent in the same round.
  for (let write = await firstWaiting(by); write; write = await firstWaiting(by)) {
    let response: Response;
    try {
      response = await send(write);
    } catch {
      await markTried(write);
      return { done: false, tries: write.tries + 1, signedOut: false };
    }
    if (response.ok) {
      await removeWaiting(write.seq);
    } else if (response.status === 401) {
      return { done: false, tries: write.tries, signedOut: true };
    } else {
      const refusal = await refusalOf(response);
      if (later(refusal.status, refusal.code)) {
        await markTried(write);
        return { done: false, tries: write.tries + 1, signedOut: false };
      }
      await moveToAttention(write, refusal);
    }
    told();
  }
  return { done: true };
}

let sending: Promise<Round> | null = null;

/**
 * Sends the work `by` (a member's id) did that waits, once at a time in this page, and
 * once at a time across the pages and service worker of this browser (a Web Lock where
 * the browser has it). Another member's work waits until they are signed in here: it
 * is sent with the session's cookie, and recorded as theirs.
 */
export function sendWaiting(by: string): Promise<Round> {
  if (sending === null) {
    const round =
      'locks' in navigator
        ? (navigator.locks.request(SYNC_TAG, () => sendRound(by)) as unknown as Promise<Round>)
        : sendRound(by);
    sending = round.finally(() => {
      sending = null;
    });
  }
  return sending;
}
