import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { Schemas } from '../../api/client';
import type { Session } from '../../api/session';
import { takeNext } from './next';
import { useTitle } from '../../ui/title';
import { PasteLink } from './paste-link';
import { currentSession, holderOf, secretOf, signInWith } from './link';
import { strings } from './strings';

type Holder = Schemas['SignInLinkHolder'];

/** Someone signed in here, and a link for someone else: the question before switching. */
interface Switch {
  readonly now: Session;
  readonly link: Holder;
}

/**
 * Where a sign-in link lands (`/sign-in#vsl_…`). The secret is read from the
 * fragment, which the browser never sends to the server, and removed from the
 * address bar and the history at once. When someone is signed in on this browser
 * already and the link is someone else's (or another lab's), the page names both
 * and asks before switching: a link sent to switch a browser to another account
 * changes nothing without a word. Then the secret is exchanged for a session and
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
  const [asking, setAsking] = useState<Switch | null>(null);
  const [busy, setBusy] = useState(false);

  const done = (session: Session) => {
    props.onSignedIn(session);
    route(takeNext(), true);
  };

  const use = async (link: string) => {
    setBusy(true);
    const answer = await signInWith(link);
    setBusy(false);
    if (answer.ok) done(answer.data);
    else setProblem(answer.failure.error);
  };

  const start = async (link: string) => {
    const now = await currentSession();
    if (!now.ok) return use(link);
    const holder = await holderOf(link);
    if (!holder.ok) {
      setProblem(holder.failure.error);
      return;
    }
    const same =
      holder.data.member.id === now.data.member.id &&
      holder.data.workspace.id === now.data.workspace.id;
    if (same) return use(link);
    setAsking({ now: now.data, link: holder.data });
  };

  useEffect(() => {
    if (location.hash !== '') history.replaceState(null, '', '/sign-in');
    if (secret === null) return;
    void start(secret);
    // Once, with the secret the page opened with.
  }, [secret]);

  const s = strings.signIn;
  return (
    <main class="centered" id="main">
      <div class="card">
        <img src="/favicon.svg" alt="" width="48" height="48" />
        <h1>
          {problem !== null || secret === null
            ? s.title
            : asking !== null
              ? s.switchTitle
              : s.working}
        </h1>
        {asking !== null && problem === null && (
          <div class="switch" role="group" aria-label={s.switchTitle}>
            <p>{s.signedInAs(asking.now.member.name, asking.now.workspace.name)}</p>
            <p>{s.linkFor(asking.link.member.name, asking.link.workspace.name)}</p>
            <p class="muted">{s.switchWhy}</p>
            <div class="actions">
              <button
                type="button"
                class="button"
                disabled={busy}
                onClick={() => void use(secret!)}
              >
                {s.switchTo(asking.link.member.name)}
              </button>
              <button
                type="button"
                class="button button-primary"
                disabled={busy}
                onClick={() => done(asking.now)}
              >
                {s.stay(asking.now.member.name)}
              </button>
            </div>
          </div>
        )}
        {problem !== null && (
          <div role="alert">
            <h2>{s.failed}</h2>
            <p>{problem}</p>
          </div>
        )}
        {(secret === null || problem !== null) && (
          <>
            <p>{problem === null ? s.noLink : s.again}</p>
            <PasteLink onSignedIn={done} />
          </>
        )}
      </div>
    </main>
  );
}
