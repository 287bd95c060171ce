import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Answer } from '../api/client';
import { isStale, useBackOnline } from '../api/cache-status';
import { Notice } from './parts';

/** The way back from a record's screen to its list: `← All tasks`. */
export function BackLink(props: { href: string; label: string; small?: boolean }) {
  return (
    <p class={props.small ? 'small' : undefined}>
      <a href={props.href}>← {props.label}</a>
    </p>
  );
}

/** Where a record screen leads back to, and what it says while it reads. */
export interface RecordScreenWords {
  href: string;
  back: string;
  loading: string;
  /** The way back in small print (the task and contamination screens). */
  small?: boolean;
}

type Change<T> = T | ((current: T) => T);

export type RecordScreen<T> =
  | {
      readonly record: T;
      /** Shows a record the screen changed (as the API answered it) without reading again. */
      readonly setRecord: (next: Change<T>) => void;
      readonly back: VNode;
      readonly fallback: null;
      /** Reads the record again, keeping it on screen meanwhile. */
      readonly reload: () => void;
    }
  | {
      readonly record: null;
      readonly back: VNode;
      readonly fallback: VNode;
      readonly reload: () => void;
    };

/**
 * One record read by id for a screen of its own. Until it is read, `fallback` is what
 * the screen shows: the way back and a loading line, or the way back and the API's
 * refusal. The way back stands first in all three, so nothing jumps when the record
 * comes.
 */
export function useRecordScreen<T>(
  read: () => Promise<Answer<T>>,
  id: string,
  words: RecordScreenWords,
): RecordScreen<T> {
  const [version, setVersion] = useState(0);
  const [held, setHeld] = useState<{ id: string; answer: Answer<T> } | null>(null);
  useEffect(() => {
    let current = true;
    void read().then((answer) => {
      if (current) setHeld({ id, answer });
    });
    return () => {
      current = false;
    };
  }, [id, version]);

  const reload = () => setVersion((v) => v + 1);
  const back = <BackLink href={words.href} label={words.back} small={words.small} />;
  // A record of another id (the address changed) is not shown while the new one reads.
  const answer = held !== null && held.id === id ? held.answer : null;
  // Kept on this device (offline): read again once the connection is back.
  useBackOnline(isStale(answer), reload);
  if (answer === null || !answer.ok) {
    return {
      record: null,
      back,
      reload,
      fallback: (
        <>
          {back}
          {answer === null ? (
            <p aria-busy="true">{words.loading}</p>
          ) : (
            <Notice tone="bad">{answer.failure.error}</Notice>
          )}
        </>
      ),
    };
  }
  return {
    record: answer.data,
    back,
    fallback: null,
    setRecord: (next) =>
      setHeld((now) =>
        now === null || !now.answer.ok
          ? now
          : {
              id: now.id,
              answer: {
                ...now.answer,
                data: typeof next === 'function' ? (next as (c: T) => T)(now.answer.data) : next,
              },
            },
      ),
    reload,
  };
}
