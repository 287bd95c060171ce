import { useEffect, useState } from 'preact/hooks';
import type { Answer } from '../api/client';

/** One API read for a screen's part: null while it loads, then its answer. */
export function useAnswer<T>(read: () => Promise<Answer<T>>, deps: readonly unknown[] = []) {
  const [answer, setAnswer] = useState<Answer<T> | null>(null);
  useEffect(() => {
    let current = true;
    setAnswer(null);
    void read().then((result) => {
      if (current) setAnswer(result);
    });
    return () => {
      current = false;
    };
  }, deps);
  return answer;
}

/** Any async value for a screen's part (a name looked up, a search): null while it loads. */
export function useLoaded<T>(read: () => Promise<T>, deps: readonly unknown[] = []): T | null {
  const [value, setValue] = useState<T | null>(null);
  useEffect(() => {
    let current = true;
    setValue(null);
    void read().then((result) => {
      if (current) setValue(result);
    });
    return () => {
      current = false;
    };
  }, deps);
  return value;
}
