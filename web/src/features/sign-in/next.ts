/** Where to go back to after signing in (a signed-out visit to a record's address). */
const NEXT_KEY = 'vitro.next';
const NEXT_TTL_MS = 30 * 60 * 1000;

export function rememberNext(path: string): void {
  if (!path.startsWith('/') || path.startsWith('//')) return;
  try {
    localStorage.setItem(NEXT_KEY, JSON.stringify({ path, at: Date.now() }));
  } catch {
    // Private mode without storage: the person lands on the home screen instead.
  }
}

export function takeNext(): string {
  try {
    const raw = localStorage.getItem(NEXT_KEY);
    localStorage.removeItem(NEXT_KEY);
    if (raw === null) return '/';
    const saved = JSON.parse(raw) as { path?: unknown; at?: unknown };
    const fresh = typeof saved.at === 'number' && Date.now() - saved.at < NEXT_TTL_MS;
    const path = typeof saved.path === 'string' ? saved.path : '/';
    return fresh && path.startsWith('/') && !path.startsWith('//') && !isSignInPath(path)
      ? path
      : '/';
  } catch {
    return '/';
  }
}

export const isSignInPath = (path: string) =>
  path === '/sign-in' || path.startsWith('/sign-in?') || path.startsWith('/signed-out');
