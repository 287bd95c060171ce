import { useLocation } from 'preact-iso';
import type { Session } from '../../api/session';
import { rememberNext, takeNext } from './next';
import { useTitle } from '../../ui/title';
import { PasteLink } from './paste-link';
import { strings } from './strings';

/** Where a signed-out visit lands: how to get in, and back to where the person was going. */
export default function SignedOut(props: { onSignedIn: (session: Session) => void }) {
  useTitle(strings.signedOut.title);
  const { query, route } = useLocation();
  const next = typeof query.next === 'string' && query.next.startsWith('/') ? query.next : null;
  if (next !== null) rememberNext(next);
  return (
    <main class="centered" id="main">
      <div class="card">
        <img src="/favicon.svg" alt="" width="48" height="48" />
        <h1>{strings.signedOut.title}</h1>
        {query.bye !== undefined && <p role="status">{strings.signedOut.bye}</p>}
        <p>{strings.signedOut.lead}</p>
        <h2>{strings.signedOut.howTitle}</h2>
        <ol>
          {strings.signedOut.how.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        {next !== null && next !== '/' && <p class="muted">{strings.signedOut.back}</p>}
        <p>{strings.signedOut.paste}</p>
        <PasteLink
          onSignedIn={(session) => {
            props.onSignedIn(session);
            route(takeNext(), true);
          }}
        />
      </div>
    </main>
  );
}
