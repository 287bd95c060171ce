import { useEffect, useRef, useState } from 'preact/hooks';
import type { Answer } from '../api/client';
import { isStale, useBackOnline } from '../api/cache-status';

/**
 * One API read for a screen's part: null while it loads, then its answer. An
 * answer kept on this device (offline) is read again when the connection is back,
 * and stays on screen until the server's comes.
 */
export function useAnswer<T>(read: () => Promise<Answer<T>>, deps: readonly unknown[] = []) {
  const [answer, setAnswer] = useState<Answer<T> | null>(null);
  const [fresh, setFresh] = useState(0);
  const again = useRef(false);
  useEffect(() => {
    let current = true;
    if (!again.current) setAnswer(null);
    again.current = false;
    void read().then((result) => {
      if (current) setAnswer(result);
    });
    return () => {
      current = false;
    };
  }, [...deps, fresh]);
  useBackOnline(isStale(answer), () => {
    again.current = true;
    setFresh((n) => n + 1);
  });
  return answer;
}

/**
 * Any async value for a screen's part (a name looked up, a search): null while it
 * loads. When `stale` says the value came from this device (or from no connection),
 * it is read again once the connection is back, as `useAnswer`'s answers are.
 */
export function useLoaded<T>(
  read: () => Promise<T>,
  deps: readonly unknown[] = [],
  stale?: (value: T) => boolean,
): T | null {
  const [value, setValue] = useState<T | null>(null);
  const [fresh, setFresh] = useState(0);
  const again = useRef(false);
  useEffect(() => {
    let current = true;
    if (!again.current) setValue(null);
    again.current = false;
    void read().then((result) => {
      if (current) setValue(result);
    });
    return () => {
      current = false;
    };
  }, [...deps, fresh]);
  useBackOnline(value !== null && stale !== undefined && stale(value), () => {
    again.current = true;
    setFresh((n) => n + 1);
  });
  return value;
}
