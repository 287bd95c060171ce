import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call } from '../api/client';
import { Icon } from './icons';
import { BELL_EVERY_MS, onNotificationsRead } from '../features/notifications/model';
import { strings } from '../features/notifications/strings';

/** The unread count, as the inbox's first page of unread ones says (`meta.unread_count`). */
async function unreadCount(): Promise<number | null> {
  const answer = await call(
    api.GET('/api/v1/notifications', { params: { query: { unread: true, limit: 1 } } }),
  );
  if (!answer.ok) return null;
  const meta = answer.meta as { unread_count?: number } | undefined;
  return meta?.unread_count ?? null;
}

/**
 * The bell in the top bar: a link to the inbox with the unread count, asked again
 * every minute, when the tab comes back into view, on each new screen and when
 * notifications are read here.
 */
export function Bell() {
  const { path } = useLocation();
  const [unread, setUnread] = useState(0);
  useEffect(() => {
    let live = true;
    const refresh = () => {
      void unreadCount().then((n) => {
        if (live && n !== null) setUnread(n);
      });
    };
    refresh();
    const timer = window.setInterval(refresh, BELL_EVERY_MS);
    const visible = () => {
      if (document.visibilityState === 'visible') refresh();
    };
    document.addEventListener('visibilitychange', visible);
    const stop = onNotificationsRead(refresh);
    return () => {
      live = false;
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', visible);
      stop();
    };
  }, [path]);
  return (
    <a
      class="bell"
      href="/notifications"
      aria-label={strings.bell.label(unread)}
      aria-current={path === '/notifications' ? 'page' : undefined}
    >
      <Icon name="bell" />
      {unread > 0 && (
        <span class="bell-count" aria-hidden="true">
          {unread >= 1000 ? '999+' : unread}
        </span>
      )}
    </a>
  );
}
