import { api } from '../api/client';
import { onBackOnline } from '../api/cache-status';
import { TASK_STATUSES } from '../features/tasks/model';

const DAY = 86_400_000;

/** Tasks read per column of the Tasks board (its COLUMN_PAGE). */
const COLUMN_PAGE = 20;

/** Today's "due before the end of tomorrow" (kept without the moment: see answerKey). */
function endOfTomorrow(now: Date): Date {
  const end = new Date(now);
  end.setHours(0, 0, 0, 0);
  return new Date(end.getTime() + 2 * DAY);
}

/**
 * The reads a person needs at the bench with no connection, whether or not their
 * screens were opened here: Today's parts, the Tasks board (everyone's, and the
 * person's own), the lab's stage lists, rooms and own fields (every form's lists),
 * and the people's names. Each is the very read its screen makes (same address,
 * same query), so the read cache (api/cache.ts) keeps it where the screen looks.
 */
function reads(member: string, now: Date): Promise<unknown>[] {
  const board = (mine: boolean) =>
    TASK_STATUSES.map((status) =>
      api.GET('/api/v1/tasks', {
        params: {
          query: { status, limit: COLUMN_PAGE, ...(mine ? { assigned_to: member } : {}) },
        },
      }),
    );
  return [
    api.GET('/api/v1/tasks', {
      params: { query: { open: true, due_before: endOfTomorrow(now).toISOString(), limit: 20 } },
    }),
    api.GET('/api/v1/contaminations', { params: { query: { open: true, limit: 20 } } }),
    api.GET('/api/v1/explants', {
      params: {
        query: {
          transfer_due_before: new Date(now.getTime() + 7 * DAY).toISOString(),
          limit: 20,
        },
      },
    }),
    api.GET('/api/v1/rooms', { params: { query: { limit: 50 } } }),
    api.GET('/api/v1/activity', { params: { query: { limit: 10 } } }),
    ...board(false),
    ...board(true),
    api.GET('/api/v1/people', { params: { query: { limit: 200 } } }),
    api.GET('/api/v1/stage-lists'),
    api.GET('/api/v1/rooms', { params: { query: { limit: 200 } } }),
    api.GET('/api/v1/custom-fields'),
  ];
}

/** Kept ahead at most this often: a tablet going in and out of Wi-Fi does not read it all each time. */
const EVERY = 5 * 60_000;
/** When, and for whom, it was last read ahead in this browser (a reload is not a reason to read it all again). */
const LAST = 'vitro-kept-ahead';
/** A moment after the console opens: the screen's own reads are kept first. */
const AFTER = 2000;

function keepNow(member: string): void {
  const [who, at] = (localStorage.getItem(LAST) ?? '').split(' ');
  if (!navigator.onLine || (who === member && Date.now() - Number(at) < EVERY)) return;
  localStorage.setItem(LAST, `${member} ${Date.now()}`);
  // A read refused (a role without the right) keeps nothing; the screen says why when opened.
  for (const read of reads(member, new Date())) read.catch(() => undefined);
}

/**
 * Reads ahead, in the background, what the person would need offline: a moment
 * after the console opens signed in and online, and again when the connection
 * returns, at most every five minutes. Answers the way to stop (signed out).
 */
export function keepAhead(member: string): () => void {
  const soon = window.setTimeout(() => keepNow(member), AFTER);
  const stop = onBackOnline(() => keepNow(member));
  return () => {
    window.clearTimeout(soon);
    stop();
  };
}
