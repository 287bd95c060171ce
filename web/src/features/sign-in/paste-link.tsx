import { useState } from 'preact/hooks';
import { TextField } from '../../forms/fields';
import type { Session } from '../../api/session';
import { secretOf, signInWith } from './link';
import { strings } from './strings';

/** For a link received in a chat or a mail: paste it here and sign in, in this tab. */
export function PasteLink(props: { onSignedIn: (session: Session) => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const secret = secretOf(text);
    if (secret === null) {
      setError(strings.pasteLink.notALink);
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
        label={strings.pasteLink.label}
        hint={strings.pasteLink.hint}
        error={error}
        value={text}
        autocomplete="off"
        onInput={(event) => setText(event.currentTarget.value)}
      />
      <button type="submit" class="button button-primary" disabled={busy}>
        {strings.pasteLink.submit}
      </button>
    </form>
  );
}
