import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { NAVIGATION, type NavEntry } from './screens';
import { useSignedIn } from '../api/session';
import { AccountMenu } from './account-menu';
import { Icon } from './icons';
import { Search } from './search';
import { strings } from './strings';

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
  // The bottom bar's scan button is the way to Scan there.
  const bar = places.filter((entry) => entry.href !== '/labels');

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
      </nav>
      <div class="page">
        <header class="topbar">
          <a class="brand brand-compact" href="/" aria-label={strings.home}>
            <img src="/favicon.svg" alt="" width="28" height="28" />
          </a>
          <Search inputRef={search} />
          <AccountMenu places={bar.slice(4)} />
        </header>
        <main id="main" ref={main} tabIndex={-1}>
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
          {bar.slice(2, 4).map((entry) => (
            <li key={entry.href}>{link(entry)}</li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
