import { useRef, useState } from 'preact/hooks';
import { newIdempotencyKey, QUEUED, type Answer, type Failure } from '../api/client';

/**
 * The field a refusal names: the API says `name: must not be empty`,
 * `email: "x" is not an email address`, `scopes[2]: must be one of …`.
 */
export function fieldOf(failure: Failure): string | null {
  const match = /^([A-Za-z_][A-Za-z0-9_-]*)(?:[.[][^:]*)?: /.exec(failure.error);
  return match === null ? null : match[1]!;
}

/**
 * Which of a form's `fields` a refusal names: the whole path when the form has a
 * field of that name (`custom_fields.variegation`), else the field it starts with.
 */
function namedIn(failure: Failure, fields: readonly string[]): string | null {
  const path = /^([A-Za-z_][A-Za-z0-9_.-]*): /.exec(failure.error)?.[1];
  if (path !== undefined && fields.includes(path)) return path;
  const named = fieldOf(failure);
  return named !== null && fields.includes(named) ? named : null;
}

/** The refusal shown beside a form's fields, or at its top when it names none of them. */
function refusalOf(failure: Failure | null, fields: readonly string[]) {
  const named = failure === null ? null : namedIn(failure, fields);
  return {
    errorFor: (field: string) => (failure !== null && named === field ? failure.error : null),
    formError: failure !== null && named === null ? failure.error : null,
  };
}

export interface ApiForm<T> {
  /** For `<form onSubmit>`: sends once at a time; the typed values stay as they are. */
  submit: (event?: Event) => Promise<T | null>;
  readonly busy: boolean;
  /** The API's words for a field it named, for beside that field. */
  errorFor: (field: string) => string | null;
  /** A refusal that names none of the form's fields, for the top of the form. */
  readonly formError: string | null;
  clear: () => void;
}

/**
 * Sends a form's request with its own Idempotency-Key, kept until the request
 * succeeds: a retry after a dropped connection replays the first answer instead
 * of creating a second record. A bench write made offline is kept in the write
 * queue with that key (`onQueued`). Refusals are shown in the API's own words, next
 * to the field they name (`fields`), else at the top of the form.
 */
export function useApiForm<T>(options: {
  fields: readonly string[];
  send: (idempotencyKey: string) => Promise<Answer<T>>;
  onSuccess?: (data: T) => void;
  /**
   * The write was kept on this device to send later (offline/queue.ts): done for the
   * form, with nothing made yet. Without it, the form says so at its top.
   */
  onQueued?: () => void;
}): ApiForm<T> {
  const key = useRef<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  return {
    busy,
    ...refusalOf(failure, options.fields),
    clear: () => setFailure(null),
    submit: async (event) => {
      event?.preventDefault();
      if (busy) return null;
      key.current ??= newIdempotencyKey();
      setBusy(true);
      setFailure(null);
      try {
        const answer = await options.send(key.current);
        if (!answer.ok && answer.failure.code === QUEUED.code) {
          // The queue holds the key now; a next submit is a new piece of work.
          key.current = null;
          if (options.onQueued) options.onQueued();
          else setFailure(answer.failure);
          return null;
        }
        if (!answer.ok) {
          setFailure(answer.failure);
          return null;
        }
        key.current = null;
        options.onSuccess?.(answer.data);
        return answer.data;
      } finally {
        setBusy(false);
      }
    },
  };
}

export interface ApiBatch<T> extends ApiForm<readonly T[]> {
  /** What each request made, by its place in the batch; null where none was made yet. */
  readonly made: readonly (T | null)[];
  /** How many requests the batch sends in all. */
  readonly total: number;
  /** The place of the request the API refused (the batch stops there); null when none was. */
  readonly failedAt: number | null;
}

/**
 * A form that makes several records, one request each (N explants at once): each
 * request has its own Idempotency-Key, kept until the batch is done, and a submit
 * sends only those not made yet, in order, stopping at the first refusal. Sent again
 * after a dropped answer, a request is the same submission: nothing is made twice.
 * Refusals show as `useApiForm`'s do; `made` says how far it got.
 */
export function useApiBatch<T>(options: {
  fields: readonly string[];
  /** How many requests the batch sends (read when it is sent). */
  total: () => number;
  send: (index: number, idempotencyKey: string) => Promise<Answer<T>>;
  onSuccess?: (made: readonly T[]) => void;
}): ApiBatch<T> {
  const keys = useRef<string[]>([]);
  // Read and written while the batch runs, between renders.
  const sending = useRef(false);
  const madeNow = useRef<(T | null)[]>([]);
  const [made, setMade] = useState<readonly (T | null)[]>([]);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ at: number; failure: Failure } | null>(null);
  const total = Math.max(made.length, options.total());
  return {
    busy,
    made,
    total,
    failedAt: failure?.at ?? null,
    ...refusalOf(failure?.failure ?? null, options.fields),
    clear: () => setFailure(null),
    submit: async (event) => {
      event?.preventDefault();
      if (sending.current) return null;
      sending.current = true;
      const count = Math.max(madeNow.current.length, options.total());
      const now: (T | null)[] = Array.from({ length: count }, (_, i) => madeNow.current[i] ?? null);
      setBusy(true);
      setFailure(null);
      try {
        for (let i = 0; i < count; i++) {
          if (now[i] !== null) continue;
          const key = (keys.current[i] ??= newIdempotencyKey());
          const answer = await options.send(i, key);
          if (!answer.ok) {
            setFailure({ at: i, failure: answer.failure });
            return null;
          }
          now[i] = answer.data;
          madeNow.current = [...now];
          setMade(madeNow.current);
        }
        const all = now as T[];
        keys.current = [];
        madeNow.current = [];
        setMade([]);
        options.onSuccess?.(all);
        return all;
      } finally {
        sending.current = false;
        setBusy(false);
      }
    },
  };
}

/** A form's typed values, by the API's names of its fields. */
export interface FormValues<K extends string> {
  readonly now: Readonly<Record<K, string>>;
  /** The fields, for `useApiForm({ fields })`. */
  readonly names: readonly K[];
  readonly set: (name: K) => (value: string) => void;
  /** Back to the values the form started with (after a save that keeps the form open). */
  readonly reset: () => void;
}

/** The values of a form's fields in one place, starting from `initial`. */
export function useFormValues<K extends string>(initial: Record<K, string>): FormValues<K> {
  const [now, setNow] = useState(initial);
  return {
    now,
    names: Object.keys(initial) as K[],
    set: (name) => (value) => setNow((held) => ({ ...held, [name]: value })),
    reset: () => setNow(initial),
  };
}

/** Whether the API's refusal names one of these fields (a part kept behind "More" opens). */
export const hasError = (form: ApiForm<unknown>, fields: readonly string[]) =>
  fields.some((field) => form.errorFor(field) !== null);

/** What a text field holds, for a request: left out when blank, else trimmed. */
export const textOf = (value: string): string | undefined =>
  value.trim() === '' ? undefined : value.trim();

/**
 * What a number field holds, for a request: left out when empty, else the number it
 * reads as (text that is no number goes as null, which the API refuses naming the field).
 */
export function countOf(value: string): number | undefined {
  const text = value.trim();
  return text === '' ? undefined : Number(text);
}

/** A request body's optional members that were given: the undefined ones left out. */
export function given<T extends Record<string, unknown>>(members: T) {
  return Object.fromEntries(Object.entries(members).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
