import { useState } from 'preact/hooks';
import { TextField } from '../../forms/fields';
import type { Session } from '../../api/session';
import { secretOf, signInWith } from './link';

const strings = {
  label: 'Sign-in link',
  hint: 'Paste the whole link you were given (it starts with http and contains /sign-in#).',
  submit: 'Sign in',
  notALink: 'This is not a sign-in link. It looks like https://…/sign-in#vsl_…',
} as const;

/** For a link received in a chat or a mail: paste it here and sign in, in this tab. */
export function PasteLink(props: { onSignedIn: (session: Session) => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const secret = secretOf(text);
    if (secret === null) {
      setError(strings.notALink);
      return;
    }
    setBusy(true);
    const answer = await signInWith(secret);
    setBusy(false);
    if (answer.ok) props.onSignedIn(answer.data);
    else setError(answer.failure.error);
  };
  return (
    <form class="form" onSubmit={(event) => void submit(event)}>
      <TextField
        name="link"
        label={strings.label}
        hint={strings.hint}
        error={error}
        value={text}
        autocomplete="off"
        onInput={(event) => setText(event.currentTarget.value)}
      />
      <button type="submit" class="button button-primary" disabled={busy}>
        {strings.submit}
      </button>
    </form>
  );
}
