import { useLocation } from 'preact-iso';
import type { Session } from '../../api/session';
import { rememberNext, takeNext } from './next';
import { useTitle } from '../../ui/title';
import { PasteLink } from './paste-link';

const strings = {
  title: 'You are signed out',
  bye: 'You have signed out.',
  lead: 'People sign in to Vitro with a personal sign-in link: no password to remember.',
  howTitle: 'How to get a sign-in link',
  how: [
    'Ask an admin or owner of your lab: they make one for you on the Members page.',
    'Whoever runs the Vitro server can also make one there: npx vitro member link --member <member id>',
    'Open the link on this device within 15 minutes. It works once.',
  ],
  paste: 'Got the link in a chat or an email? Paste it here:',
  back: 'After signing in you will go straight back to the page you opened.',
} as const;

/** Where a signed-out visit lands: how to get in, and back to where the person was going. */
export default function SignedOut(props: { onSignedIn: (session: Session) => void }) {
  useTitle(strings.title);
  const { query, route } = useLocation();
  const next = typeof query.next === 'string' && query.next.startsWith('/') ? query.next : null;
  if (next !== null) rememberNext(next);
  return (
    <main class="centered" id="main">
      <div class="card">
        <img src="/favicon.svg" alt="" width="48" height="48" />
        <h1>{strings.title}</h1>
        {query.bye !== undefined && <p role="status">{strings.bye}</p>}
        <p>{strings.lead}</p>
        <h2>{strings.howTitle}</h2>
        <ol>
          {strings.how.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        {next !== null && next !== '/' && <p class="muted">{strings.back}</p>}
        <p>{strings.paste}</p>
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
