import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { Session } from '../../api/session';
import { takeNext } from './next';
import { useTitle } from '../../ui/title';
import { PasteLink } from './paste-link';
import { secretOf, signInWith } from './link';
import { strings } from './strings';

/**
 * Where a sign-in link lands (`/sign-in#vsl_…`). The secret is read from the
 * fragment, which the browser never sends to the server, and removed from the
 * address bar and the history at once; then it is exchanged for a session and
 * the person is taken where they were going.
 */
export default function SignIn(props: { onSignedIn: (session: Session) => void }) {
  useTitle(strings.signIn.title);
  const { route } = useLocation();
  const [secret] = useState(() => secretOf(location.hash.slice(1)));
  // A link whose secret is cut short or changed (`#vsl_garbage`): said at once, sent nowhere.
  const [problem, setProblem] = useState<string | null>(() =>
    secret === null && location.hash.length > 1 ? strings.signIn.notValid : null,
  );

  const done = (session: Session) => {
    props.onSignedIn(session);
    route(takeNext(), true);
  };

  useEffect(() => {
    if (location.hash !== '') history.replaceState(null, '', '/sign-in');
    if (secret === null) return;
    void signInWith(secret).then((answer) => {
      if (answer.ok) done(answer.data);
      else setProblem(answer.failure.error);
    });
    // Once, with the secret the page opened with.
  }, [secret]);

  return (
    <main class="centered" id="main">
      <div class="card">
        <img src="/favicon.svg" alt="" width="48" height="48" />
        <h1>
          {secret !== null && problem === null ? strings.signIn.working : strings.signIn.title}
        </h1>
        {problem !== null && (
          <div role="alert">
            <h2>{strings.signIn.failed}</h2>
            <p>{problem}</p>
          </div>
        )}
        {(secret === null || problem !== null) && (
          <>
            <p>{problem === null ? strings.signIn.noLink : strings.signIn.again}</p>
            <PasteLink onSignedIn={done} />
          </>
        )}
      </div>
    </main>
  );
}
