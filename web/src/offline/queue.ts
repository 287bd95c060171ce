import type { Middleware } from 'openapi-fetch';
import { queuedKind } from './queue-kinds';
import { SYNC_TAG, sendWaiting, told, CHANNEL, type Round } from './queue-send';
import { addWaiting, firstWaiting, type NewWrite } from './queue-store';

/** What `call` is told when a write was kept on this device instead of sent. */
export class Queued extends Error {
  constructor() {
    super('kept on this device, waiting to send');
    this.name = 'Queued';
  }
}

/** The writes on their way now, by openapi-fetch's request id: queued if no answer comes. */
const onTheirWay = new Map<string, NewWrite>();

function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/** Background Sync, where a service worker controls the page and the browser has it. */
async function askForSync(): Promise<void> {
  const worker = navigator.serviceWorker;
  if (worker?.controller == null) return;
  const registration = (await worker.ready) as ServiceWorkerRegistration & {
    sync?: { register: (tag: string) => Promise<void> };
  };
  await registration.sync?.register(SYNC_TAG).catch(() => undefined);
}

async function keep(write: NewWrite): Promise<void> {
  await addWaiting(write);
  told();
  void askForSync();
  if (navigator.onLine) sendSoon();
}

/**
 * The write queue, in the client every console call goes through: a bench write
 * (queue-kinds.ts) made while the browser is offline, or while earlier ones still
 * wait (the order of the work is kept), is kept in IndexedDB and not sent; one that
 * gets no answer at all is kept the same way. Either way `call` answers QUEUED. Its
 * body carries the time of the work in the API's own field (`transfer_date`,
 * `observed_at`, …) unless the person gave one, from the first send on: a send
 * again is the same request with the same Idempotency-Key.
 */
export const queueWrites: Middleware = {
  async onRequest({ request, schemaPath, params, id }) {
    const kind = queuedKind(request.method, schemaPath);
    const key = params.header?.['idempotency-key'];
    // Signed out (the sign-in pages) nothing is kept: there is no one to send it as.
    if (kind === null || typeof key !== 'string' || signedInAs === null) return undefined;
    const doneAt = new Date().toISOString();
    const asked = JSON.parse(await request.clone().text()) as Record<string, unknown>;
    const field = kind.time;
    const timed = field !== undefined && asked[field] === undefined;
    const body = timed ? { ...asked, [field]: doneAt } : asked;
    const path = params.path ?? {};
    const write: NewWrite = {
      key,
      doneAt,
      by: signedInAs,
      kind: kind.kind,
      method: request.method,
      path: schemaPath,
      params: path,
      url: pathOf(request.url),
      body,
      record: kind.about(path, body),
    };
    if (!navigator.onLine || (await firstWaiting(signedInAs)) !== undefined) {
      await keep(write);
      throw new Queued();
    }
    onTheirWay.set(id, write);
    return timed ? new Request(request, { body: JSON.stringify(body) }) : undefined;
  },
  onResponse({ id }) {
    onTheirWay.delete(id);
    return undefined;
  },
  async onError({ id }) {
    const write = onTheirWay.get(id);
    if (write === undefined) return undefined;
    onTheirWay.delete(id);
    await keep(write);
    return new Queued();
  },
};

/** Tells `listener` whenever the queue changes, in this page or another (or the service worker). */
export function onQueueChange(listener: () => void): () => void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = listener;
  return () => channel.close();
}

/** Waits before trying again after no answer: 2 s, 4 s, … up to a minute. */
const backoff = (tries: number) => Math.min(60_000, 1000 * 2 ** Math.min(tries, 6));

let retry: number | undefined;
/** The member signed in here, whose work the queue keeps and sends. */
let signedInAs: string | null = null;

function sendSoon(): void {
  window.clearTimeout(retry);
  if (signedInAs === null) return;
  void sendWaiting(signedInAs).then((round: Round) => {
    if (!round.done && !round.signedOut) retry = window.setTimeout(sendSoon, backoff(round.tries));
  });
}

/**
 * Sends what waits now (the console just opened, or someone signed in), again when
 * the browser is back online, and after each failed round with a growing pause.
 */
export function startSending(member: string): () => void {
  signedInAs = member;
  window.addEventListener('online', sendSoon);
  if (navigator.onLine) sendSoon();
  return () => {
    signedInAs = null;
    window.removeEventListener('online', sendSoon);
    window.clearTimeout(retry);
  };
}
