import { useEffect, useState } from 'preact/hooks';
import { onReach, type Answer } from './client';

/** Listeners told the time of each kept answer shown in place of the server's. */
const servedListeners = new Set<(savedAt: number) => void>();

export function servedFromCache(savedAt: number): void {
  for (const listener of servedListeners) listener(savedAt);
}

/** Listeners told when the server can be reached again. */
const backListeners = new Set<() => void>();
const back = () => {
  for (const listener of [...backListeners]) listener();
};
let reachedLast = true;
onReach((yes) => {
  if (yes && !reachedLast) back();
  reachedLast = yes;
});
if (typeof window !== 'undefined') window.addEventListener('online', back);

/** Calls `listener` each time the server can be reached again; answers the way to stop. */
export function onBackOnline(listener: () => void): () => void {
  backListeners.add(listener);
  return () => backListeners.delete(listener);
}

/**
 * An answer to read again once the server can be reached: one kept on this device
 * (`asOf`), or none for want of a connection.
 */
export function isStale(answer: Answer<unknown> | null): boolean {
  if (answer === null) return false;
  return answer.ok ? answer.asOf !== undefined : answer.failure.code === 'NETWORK';
}

/** Calls `again` when the connection comes back, while `stale` holds. */
export function useBackOnline(stale: boolean, again: () => void): void {
  useEffect(() => {
    if (!stale) return;
    let called = false;
    const listener = () => {
      if (called) return;
      called = true;
      again();
    };
    backListeners.add(listener);
    return () => backListeners.delete(listener);
  }, [stale]);
}

/**
 * When the oldest kept answer shown since `place` opened was read from the
 * server (ms), or null while everything shown is the server's own.
 */
export function useAsOf(place: string): number | null {
  const [asOf, setAsOf] = useState<number | null>(null);
  useEffect(() => {
    setAsOf(null);
    const listener = (savedAt: number) =>
      setAsOf((oldest) => (oldest === null ? savedAt : Math.min(oldest, savedAt)));
    servedListeners.add(listener);
    const onBack = () => setAsOf(null);
    backListeners.add(onBack);
    return () => {
      servedListeners.delete(listener);
      backListeners.delete(onBack);
    };
  }, [place]);
  return asOf;
}

/** "10:42" today, "27 Nov, 10:42" before: the browser's own time. */
export function asOfTime(savedAt: number, now = Date.now()): string {
  const at = new Date(savedAt);
  const time: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  return at.toDateString() === new Date(now).toDateString()
    ? at.toLocaleTimeString([], time)
    : at.toLocaleString([], { day: 'numeric', month: 'short', ...time });
}
