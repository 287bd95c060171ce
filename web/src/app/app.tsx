import { useEffect, useState } from 'preact/hooks';
import { ErrorBoundary, LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { api, call, onSignedOut, type Failure } from '../api/client';
import {
  ApiKeys,
  Contamination,
  Contaminations,
  Device,
  Devices,
  Rooms,
  Room,
  Explant,
  Explants,
  LabelPrint,
  LabelScan,
  Members,
  NotBuilt,
  NotFound,
  Plant,
  Plants,
  RESERVED,
  Task,
  Tasks,
  Sop,
  SopRun,
  SopRuns,
  Sops,
  Today,
} from './screens';
import SignedOut from '../features/sign-in/signed-out';
import SignIn from '../features/sign-in/sign-in';
import { isSignInPath, rememberNext, SessionProvider, type Session } from '../api/session';
import { Shell } from './shell';

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

  // Signed out on a page of the console: to the signed-out page, remembering the way back.
  const signedOutHere = state.kind === 'signed-out' && !isSignInPath(location.path);
  useEffect(() => {
    if (!signedOutHere) return;
    rememberNext(location.url);
    location.route(`/signed-out?next=${encodeURIComponent(location.url)}`, true);
  }, [signedOutHere, location]);

  const setSession = (session: Session | null) =>
    setState(session === null ? { kind: 'signed-out' } : { kind: 'signed-in', session });

  if (location.path === '/sign-in') return <SignIn onSignedIn={setSession} />;
  if (location.path === '/signed-out') return <SignedOut onSignedIn={setSession} />;
  if (state.kind === 'unreachable') {
    return (
      <main class="centered" id="main">
        <h1>Vitro</h1>
        <p role="alert">{state.failure.error}</p>
      </main>
    );
  }
  if (state.kind !== 'signed-in') {
    return (
      <main class="centered" id="main" aria-busy="true">
        <p>Loading…</p>
      </main>
    );
  }
  return (
    <SessionProvider session={state.session} setSession={setSession}>
      <Shell>
        <ErrorBoundary>
          <Router>
            <Route path="/" component={Today} />
            <Route path="/today" component={Today} />
            <Route path="/plants" component={Plants} />
            <Route path="/explants" component={Explants} />
            <Route path="/plants/:id" component={Plant} />
            <Route path="/explants/:id" component={Explant} />
            <Route path="/members" component={Members} />
            <Route path="/api-keys" component={ApiKeys} />
            <Route path="/devices" component={Devices} />
            <Route path="/devices/:id" component={Device} />
            <Route path="/rooms" component={Rooms} />
            <Route path="/rooms/:id" component={Room} />
            <Route path="/tasks" component={Tasks} />
            <Route path="/tasks/:id" component={Task} />
            <Route path="/contaminations" component={Contaminations} />
            <Route path="/contaminations/:id" component={Contamination} />
            <Route path="/labels" component={LabelScan} />
            <Route path="/labels/scan" component={LabelScan} />
            <Route path="/labels/print" component={LabelPrint} />
            <Route path="/sops" component={Sops} />
            <Route path="/sops/:id" component={Sop} />
            <Route path="/sop-runs" component={SopRuns} />
            <Route path="/sop-runs/:id" component={SopRun} />
            {RESERVED.map((path) => (
              <Route key={path} path={path} component={NotBuilt} />
            ))}
            <Route default component={NotFound} />
          </Router>
        </ErrorBoundary>
      </Shell>
    </SessionProvider>
  );
}
