import { clientsClaim } from 'workbox-core';
import {
  cleanupOutdatedCaches,
  matchPrecache,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkOnly } from 'workbox-strategies';
import { SYNC_TAG, sendWaiting } from './offline/queue-send';

/**
 * The console's service worker (built by vite-plugin-pwa as /sw.js): it keeps every
 * file of the build so the console opens without the network, and sends the write
 * queue when the browser's Background Sync says the connection is back, with no
 * page of the console open.
 */

/** The few parts of a service worker's scope used here (the page's DOM types have no worker's). */
interface SyncEvent extends Event {
  readonly tag: string;
  waitUntil(work: Promise<unknown>): void;
}
const worker = self as unknown as {
  skipWaiting(): Promise<void>;
  addEventListener(type: 'sync', listener: (event: SyncEvent) => void): void;
};

/** Addresses left to the server: the API, its files, its docs. */
const NOT_CONSOLE = /^\/(api|assets|files|docs|metrics)(\/|$)/;

/** How long a page's address waits for the server before the kept shell opens instead. */
const NAVIGATION_TIMEOUT_SECONDS = 3;

void worker.skipWaiting();
clientsClaim();
// The build's files, listed here by vite-plugin-pwa at build time.
precacheAndRoute((self as unknown as { __WB_MANIFEST: (string | PrecacheEntry)[] }).__WB_MANIFEST);
cleanupOutdatedCaches();
// A console address is asked of the server first (its own answer: a page not found is
// a 404, a new build its new shell); with no answer within the timeout, or offline, the
// kept shell opens and the console reads the rest. No page is kept apart from the
// build's shell: an older page could name files the build no longer has.
registerRoute(
  new NavigationRoute(
    new NetworkOnly({
      networkTimeoutSeconds: NAVIGATION_TIMEOUT_SECONDS,
      plugins: [
        {
          handlerDidError: async () => (await matchPrecache('/index.html')) ?? Response.error(),
        },
      ],
    }),
    { denylist: [NOT_CONSOLE] },
  ),
);

/**
 * Sends the work of the member whose session the browser's cookie carries: asked of
 * the server (GET /session), so a piece of work is never sent under another person's
 * session. A round that stops short (no answer, the server's trouble) fails the
 * event, and the browser tries the sync again later; signed out, the work waits for
 * its person to sign in (the page sends it then).
 */
async function sendForTheSignedIn(): Promise<void> {
  const session = await fetch('/api/v1/session', { credentials: 'same-origin' });
  if (!session.ok) return;
  const member = ((await session.json()) as { data?: { member?: { id?: unknown } } }).data?.member
    ?.id;
  if (typeof member !== 'string') return;
  const round = await sendWaiting(member);
  if (!round.done && !round.signedOut) throw new Error('the rest waits: tried again later');
}

worker.addEventListener('sync', (event) => {
  if (event.tag === SYNC_TAG) event.waitUntil(sendForTheSignedIn());
});
