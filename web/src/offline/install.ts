import { useEffect, useState } from 'preact/hooks';

/**
 * Whether the console opens without the network: `ready` once its service worker
 * keeps the shell; otherwise why not. Browsers run service workers only in a
 * secure context (https, or this machine's own address), so a lab server at
 * http://lab-server:3000 keeps reads only while the page stays open.
 */
export type OfflineReload = 'preparing' | 'ready' | 'insecure' | 'unsupported' | 'failed';

let state: OfflineReload = 'preparing';
const listeners = new Set<(state: OfflineReload) => void>();
const set = (next: OfflineReload) => {
  state = next;
  for (const listener of listeners) listener(next);
};

/** Registers the console's service worker (built by vite-plugin-pwa as /sw.js). */
export function registerServiceWorker(): void {
  if (!window.isSecureContext) return set('insecure');
  if (!('serviceWorker' in navigator)) return set('unsupported');
  void navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(
    () => navigator.serviceWorker.ready.then(() => set('ready')),
    () => set('failed'),
  );
}

export function useOfflineReload(): OfflineReload {
  const [now, setNow] = useState(state);
  useEffect(() => {
    listeners.add(setNow);
    setNow(state);
    return () => listeners.delete(setNow);
  }, []);
  return now;
}
