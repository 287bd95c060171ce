import { useEffect, useState } from 'preact/hooks';
import { ErrorBoundary, LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { api, call, onSignedOut, type Failure } from '../api/client';
import { SessionProvider, type Session } from '../api/session';
import { isSignInPath, rememberNext } from '../features/sign-in/next';
import { adminsOnly } from './gate';
import { NotFound, SCREENS } from './screens';
import { Shell } from './shell';
import { startSending } from '../offline/queue';
import { keepAhead } from './keep-ahead';
import { strings } from './strings';

/** The sign-in pages: shown outside the router, before anyone is signed in. */
const OPEN = SCREENS.flatMap((entry) => (entry.who === 'anyone' ? [entry] : []));

/** The router's screens, each behind its gate. */
const ROUTES = SCREENS.flatMap((entry) =>
  entry.who === 'anyone'
    ? []
    : [
        {
          path: entry.path,
          component:
            entry.who === 'signed-in' ? entry.screen : adminsOnly(entry.screen, entry.who.admins),
        },
      ],
);

type State =
  | { kind: 'loading' }
  | { kind: 'signed-in'; session: Session }
  | { kind: 'signed-out' }
  | { kind: 'unreachable'; failure: Failure };

export function App() {
  return (
    <LocationProvider>
      <Root />
    </LocationProvider>
  );
}

function Root() {
  const location = useLocation();
  const [state, setState] = useState<State>({ kind: 'loading' });

  // Who is signed in: asked once; a 401 from any later call signs the console out.
  useEffect(() => {
    if (isSignInPath(location.path)) return;
    void call(api.GET('/api/v1/session')).then((answer) =>
      setState(
        answer.ok
          ? { kind: 'signed-in', session: answer.data }
          : answer.failure.status === 401
            ? { kind: 'signed-out' }
            : { kind: 'unreachable', failure: answer.failure },
      ),
    );
  }, []);

  useEffect(() => onSignedOut(() => setState({ kind: 'signed-out' })), []);

  // Writes kept on this device while offline: sent once someone is signed in.
  const member = state.kind === 'signed-in' ? state.session.member.id : null;
  useEffect(() => (member !== null ? startSending(member) : undefined), [member]);
  // What the bench needs offline, read ahead whether or not its screens are opened here.
  useEffect(() => (member !== null ? keepAhead(member) : undefined), [member]);

  // Signed out on a page of the console: to the signed-out page, remembering the way back.
  const signedOutHere = state.kind === 'signed-out' && !isSignInPath(location.path);
  useEffect(() => {
    if (!signedOutHere) return;
    rememberNext(location.url);
    location.route(`/signed-out?next=${encodeURIComponent(location.url)}`, true);
  }, [signedOutHere, location]);

  const setSession = (session: Session | null) =>
    setState(session === null ? { kind: 'signed-out' } : { kind: 'signed-in', session });

  const open = OPEN.find((entry) => entry.path === location.path);
  if (open !== undefined) return <open.screen onSignedIn={setSession} />;
  if (state.kind === 'unreachable') {
    return (
      <main class="centered" id="main">
        <h1>{strings.name}</h1>
        <p role="alert">{state.failure.error}</p>
      </main>
    );
  }
  if (state.kind !== 'signed-in') {
    return (
      <main class="centered" id="main" aria-busy="true">
        <p>{strings.loading}</p>
      </main>
    );
  }
  return (
    <SessionProvider session={state.session} setSession={setSession}>
      <Shell>
        <ErrorBoundary>
          <Router>
            {ROUTES.map((route) => (
              // No key: two addresses of one screen (`/` and `/today`) keep it mounted.
              <Route path={route.path} component={route.component} />
            ))}
            <Route default component={NotFound} />
          </Router>
        </ErrorBoundary>
      </Shell>
    </SessionProvider>
  );
}
