import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useSignedIn } from '../../api/session';
import { Chip } from '../../ui/parts';
import { onQueueChange } from '../../offline/queue';
import { needingAttention, waiting, type QueuedWrite } from '../../offline/queue-store';
import { strings } from './strings';

export interface QueueNow {
  readonly waiting: readonly QueuedWrite[];
  readonly attention: readonly QueuedWrite[];
}

/** The signed-in member's write queue as it is now, read again whenever it changes (in any page). */
export function useQueue(): QueueNow {
  const member = useSignedIn().session.member.id;
  const [now, setNow] = useState<QueueNow>({ waiting: [], attention: [] });
  useEffect(() => {
    let live = true;
    const read = () =>
      void Promise.all([waiting(member), needingAttention(member)]).then(([w, a]) => {
        if (live) setNow({ waiting: w, attention: a });
      });
    read();
    const stop = onQueueChange(read);
    return () => {
      live = false;
      stop();
    };
  }, [member]);
  return now;
}

/** What a queued write is, in a few words: its kind and what it says. */
export function describe(write: QueuedWrite): string {
  const body = (write.body ?? {}) as Record<string, string | number | undefined>;
  const said = [
    body.body,
    body.stage,
    body.type,
    body.barcode,
    body.workflow_status ?? body.status,
    body.metric === undefined
      ? undefined
      : `${String(body.metric)} ${String(body.value)} ${String(body.unit)}`,
    body.event_type,
    body.vessel_count === undefined ? undefined : `${String(body.vessel_count)} vessels`,
    Array.isArray(body.daughters) ? `${body.daughters.length} daughters` : undefined,
    body.caption ?? body.filename,
  ].find((part) => typeof part === 'string' || typeof part === 'number');
  const kind = strings.kinds[write.kind] ?? write.kind;
  return said === undefined ? kind : `${kind}: ${String(said)}`;
}

export const timeOf = (iso: string) =>
  new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/**
 * The top bar's word on the queue: "3 waiting to send", and a link to what needs the
 * person's attention. Absent when nothing waits and nothing was refused.
 */
export function QueueStatus() {
  const { waiting: w, attention: a } = useQueue();
  if (w.length === 0 && a.length === 0) return null;
  return (
    <p class="status-line queue-status" role="status">
      {w.length > 0 && <span>{strings.waitingCount(w.length)}</span>}
      {a.length > 0 && <a href="/attention">{strings.attentionCount(a.length)}</a>}
    </p>
  );
}

/** The work done here on the record on screen that waits to send, shown at once. */
export function WaitingHere() {
  const { path } = useLocation();
  const here = useQueue().waiting.filter((write) => write.record === path);
  if (here.length === 0) return null;
  return (
    <section class="waiting-here" aria-label={strings.waitingHere}>
      <ul>
        {here.map((write) => (
          <li key={write.seq} class="waiting-item">
            <span>{describe(write)}</span>
            <span class="muted small">
              <time dateTime={write.doneAt}>{strings.doneAt(timeOf(write.doneAt))}</time>
            </span>
            <Chip tone="warn">{strings.waitingToSend}</Chip>
          </li>
        ))}
      </ul>
    </section>
  );
}
