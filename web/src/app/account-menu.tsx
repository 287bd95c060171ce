import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call } from '../api/client';
import { useSignedIn } from '../api/session';
import { useOfflineReload } from '../offline/install';
import { usePopup } from '../ui/popup';
import { strings } from './strings';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');

/** Who is signed in, and the ways out: this device, or every device at once. */
export function AccountMenu() {
  const { session, setSession } = useSignedIn();
  const { route } = useLocation();
  const { open, setOpen, box } = usePopup();
  const [problem, setProblem] = useState<string | null>(null);
  const offline = useOfflineReload();

  const signOut = async (everywhere: boolean) => {
    const answer = await call(
      everywhere ? api.DELETE('/api/v1/sessions') : api.DELETE('/api/v1/session'),
    );
    if (!answer.ok && answer.failure.status !== 401) {
      setProblem(answer.failure.error);
      return;
    }
    setSession(null);
    route('/signed-out?bye=1', true);
  };

  const { member, workspace } = session;
  return (
    <div class="account" ref={box}>
      <button
        type="button"
        class="account-button"
        aria-expanded={open}
        aria-controls="account-menu"
        onClick={() => setOpen(!open)}
      >
        <span class="avatar" aria-hidden="true">
          {initials(member.name)}
        </span>
        <span class="account-name">{member.name}</span>
        <span class="visually-hidden">{strings.account}</span>
      </button>
      {open && (
        <div class="account-menu" id="account-menu">
          <p>
            {strings.signedInAs} <strong>{member.name}</strong>
            <br />
            <span class="muted">{strings.roleIn(member.role, workspace.name)}</span>
          </p>
          <a class="button" href="/settings" onClick={() => setOpen(false)}>
            {strings.labSettings}
          </a>
          <button type="button" class="button" onClick={() => void signOut(false)}>
            {strings.signOut}
          </button>
          <button type="button" class="button button-quiet" onClick={() => void signOut(true)}>
            {strings.signOutEverywhere}
          </button>
          <p class="muted small">{strings.signOutEverywhereHint}</p>
          <p class="muted small" id="offline-reload">
            {strings.offlineReload[offline]}
          </p>
          {problem && <p role="alert">{problem}</p>}
        </div>
      )}
    </div>
  );
}
