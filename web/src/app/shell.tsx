import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { onReach } from '../api/client';
import { asOfTime, useAsOf } from '../api/cache-status';
import { useLocation } from 'preact-iso';
import { NAVIGATION, type NavEntry } from './screens';
import { useSignedIn } from '../api/session';
import { usePopup } from '../ui/popup';
import { Bell } from './bell';
import { AccountMenu } from './account-menu';
import { Icon } from './icons';
import { Search } from './search';
import { strings } from './strings';
import { QueueStatus, WaitingHere } from '../features/offline/waiting';

/** Addresses below a place that are no place's: the print sheet is reached from lists, not Scan. */
const NO_PLACE = ['/labels/print'];

function current(href: string, path: string): boolean {
  if (NO_PLACE.includes(path)) return false;
  return href === '/' ? path === '/' : path === href || path.startsWith(`${href}/`);
}

/**
 * The frame of every signed-in screen: on a desktop, the navigation on the left
 * and a search field on top; on a phone, the search on top and a bottom bar with
 * the most used places and a scan button within reach of a thumb.
 */
export function Shell(props: { children: ComponentChildren }) {
  const { session, atLeast } = useSignedIn();
  const { path, route } = useLocation();
  const main = useRef<HTMLElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const places = NAVIGATION.filter((entry) => !entry.admin || atLeast('admin'));
  // The phone's bottom bar: the places used most, its scan button (the way to Scan
  // there) in the middle, and More for the rest.
  const bar = places.filter((entry) => entry.bar === true);
  const more = places.filter((entry) => entry.bar !== true && entry.href !== '/labels');

  const reachable = useReachable();
  const asOf = useAsOf(path);

  // A new screen: reading starts at its content, as after a page load.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus({ preventScroll: false });
  }, [path]);

  const link = (entry: NavEntry) => (
    <a href={entry.href} aria-current={current(entry.href, path) ? 'page' : undefined}>
      <Icon name={entry.icon} />
      <span>{entry.label}</span>
    </a>
  );

  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        {strings.skip}
      </a>
      <nav class="sidebar" aria-label={strings.navigation}>
        <div class="sidebar-inner">
          <a class="brand" href="/">
            <img src="/favicon.svg" alt="" width="28" height="28" />
            <span>{strings.name}</span>
          </a>
          <p class="workspace-name">{session.workspace.name}</p>
          <ul>
            {places.map((entry) => (
              <li key={entry.href}>{link(entry)}</li>
            ))}
          </ul>
        </div>
      </nav>
      <div class="page">
        <header class="topbar">
          <a class="brand brand-compact" href="/" aria-label={strings.home}>
            <img src="/favicon.svg" alt="" width="28" height="28" />
          </a>
          <Search inputRef={search} />
          <Bell />
          <AccountMenu />
        </header>
        {!reachable && (
          <p class="status-line" role="status">
            {asOf === null ? strings.offline : strings.offlineAsOf(asOfTime(asOf))}
          </p>
        )}
        <QueueStatus />
        <main id="main" ref={main} tabIndex={-1}>
          <WaitingHere />
          {props.children}
        </main>
      </div>
      <nav class="bottombar" aria-label={strings.phoneNavigation}>
        <ul>
          {bar.slice(0, 2).map((entry) => (
            <li key={entry.href}>{link(entry)}</li>
          ))}
          <li>
            <button
              type="button"
              class="scan-button"
              aria-current={current('/labels', path) ? 'page' : undefined}
              onClick={() => route('/labels')}
            >
              <Icon name="scan" />
              <span>{strings.scan}</span>
            </button>
          </li>
          {bar.slice(2).map((entry) => (
            <li key={entry.href}>{link(entry)}</li>
          ))}
          <li>
            <MoreMenu places={more} current={(href) => current(href, path)} />
          </li>
        </ul>
      </nav>
    </div>
  );
}

/**
 * Whether the server can be reached: the browser online (its own word) and the latest
 * API call answered (no answer at all: the server is down or cut off).
 */
function useReachable(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  const [reached, setReached] = useState(true);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    const stop = onReach(setReached);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
      stop();
    };
  }, []);
  return online && reached;
}

/** The bottom bar's More: the places it has no room for (Plants, Contaminations, Rooms, …). */
function MoreMenu(props: { places: readonly NavEntry[]; current: (href: string) => boolean }) {
  const { open, setOpen, box } = usePopup();
  const here = props.places.some((entry) => props.current(entry.href));
  return (
    <div class="more-places" ref={box}>
      <button
        type="button"
        class="more-button"
        aria-expanded={open}
        aria-controls="more-menu"
        aria-current={here ? 'page' : undefined}
        onClick={() => setOpen(!open)}
      >
        <Icon name="more" />
        <span>{strings.more}</span>
      </button>
      {open && (
        <ul class="more-menu" id="more-menu" aria-label={strings.morePlaces}>
          {props.places.map((entry) => (
            <li key={entry.href}>
              <a
                href={entry.href}
                aria-current={props.current(entry.href) ? 'page' : undefined}
                onClick={() => setOpen(false)}
              >
                <Icon name={entry.icon} />
                <span>{entry.label}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
