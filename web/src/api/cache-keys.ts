export const LABEL_CODES_PATH = '/api/v1/labels/codes';

/** Reads never kept: a sign-in link's check (it carries its secret), the label sheet's codes (kept as labels). */
const NOT_KEPT = new Set(['/api/v1/sign-in-link', LABEL_CODES_PATH]);

/** A moment in a query (`due_before`, `from`): it moves with the clock, not with what is read. */
const MOMENT = /^\d{4}-\d{2}-\d{2}T/;

/**
 * The key a read of `url` is kept under, or null for a read not kept (a later page of
 * a list among them). The query's
 * parameters are sorted, and a moment's value left out, so Today's "due before the
 * end of tomorrow" read of this morning answers this afternoon's reload offline.
 */
export function answerKey(url: string): string | null {
  const parsed = new URL(url, 'http://console.invalid');
  if (!parsed.pathname.startsWith('/api/v1/') || NOT_KEPT.has(parsed.pathname)) return null;
  // A list's later pages ("More") are not kept: read once, they would only crowd out
  // the first pages and records that a screen opens with.
  if (parsed.searchParams.has('cursor')) return null;
  const params = [...parsed.searchParams.entries()]
    .map(([name, value]) => `${name}=${MOMENT.test(value) ? '*' : value}`)
    .sort();
  return params.length === 0 ? parsed.pathname : `${parsed.pathname}?${params.join('&')}`;
}

/** The session's read: what the console asks first, and whose reads are kept. */
export const SESSION_PATH = '/api/v1/session';

/** Signing out, here or everywhere. */
export const SIGN_OUT_PATHS = new Set([SESSION_PATH, '/api/v1/sessions']);

export const RESOLVE_PATH = '/api/v1/labels/resolve';
