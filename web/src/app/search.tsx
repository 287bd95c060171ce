import type { RefObject } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call, type Schemas } from '../api/client';
import { ContainerContents } from '../features/labels/contents';
import { recordHref } from '../ui/links';
import { usePopup } from '../ui/popup';
import { Icon } from './icons';
import { strings } from './strings';

type Resolution = Schemas['LabelResolution'];
type Found = Schemas['SearchResult'];

/** Results shown under the field: the best matches, never a whole lab. */
const LIMIT = 10;

const hrefOf = (found: Found): string | null =>
  found.kind in recordHref ? recordHref[found.kind as keyof typeof recordHref](found.id) : null;

/**
 * The search field on every screen. A barcode scanner types the label's code
 * into it and presses Enter: the label's record opens (a container's label lists
 * what it holds). Anything else typed is searched for across the lab's records
 * (GET /search): the matches are listed under the field, each a link, reached
 * with the arrow keys; Escape goes back to the field.
 */
export function Search(props: { inputRef: RefObject<HTMLInputElement | null> }) {
  const { route } = useLocation();
  const [code, setCode] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [container, setContainer] = useState<Resolution | null>(null);
  const [results, setResults] = useState<{ q: string; found: readonly Found[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const [focused, setFocused] = useState(false);
  const list = useRef<HTMLUListElement>(null);
  // The matches close on Escape or a click elsewhere, as a menu does.
  const { open, setOpen, box } = usePopup();
  const shown = open ? results : null;

  const close = () => {
    setResults(null);
    setContainer(null);
    setMessage(null);
  };

  const find = async (event: Event) => {
    event.preventDefault();
    const q = code.trim();
    if (q === '' || busy) return;
    close();
    setBusy(true);
    try {
      const label = await call(
        api.GET('/api/v1/labels/resolve', { params: { query: { barcode: q } } }),
      );
      if (label.ok) {
        if (label.data.record_type === 'container') {
          setContainer(label.data);
          return;
        }
        setCode('');
        route(recordHref[label.data.record_type](label.data.record_id));
        return;
      }
      // Not a label the lab knows (404), or no code at all (422): a search, then.
      if (label.failure.status !== 404 && label.failure.status !== 422) {
        setMessage(label.failure.error);
        return;
      }
      const answer = await call(
        api.GET('/api/v1/search', { params: { query: { q, limit: LIMIT } } }),
      );
      if (!answer.ok) setMessage(answer.failure.error);
      else if (answer.data.length === 0) setMessage(strings.search.none(q));
      else {
        setResults({ q, found: answer.data });
        setOpen(true);
      }
    } finally {
      setBusy(false);
    }
  };

  const links = () => [...(list.current?.querySelectorAll<HTMLAnchorElement>('a') ?? [])];
  // Arrow keys walk the results; Escape leaves them for the field.
  const onKey = (event: KeyboardEvent) => {
    if (shown === null) return;
    const all = links();
    const at = all.indexOf(document.activeElement as HTMLAnchorElement);
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      all[Math.min(at + 1, all.length - 1)]?.focus();
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      if (at <= 0) props.inputRef.current?.focus();
      else all[at - 1]?.focus();
    } else if (event.key === 'Escape') {
      props.inputRef.current?.focus();
    }
  };

  return (
    <div class="search" ref={box} onKeyDown={onKey}>
      <form role="search" onSubmit={(event) => void find(event)}>
        <label class="visually-hidden" for="search-code">
          {strings.searchLabel}
        </label>
        <input
          id="search-code"
          ref={props.inputRef}
          type="search"
          value={code}
          placeholder={strings.searchPlaceholder}
          autocomplete="off"
          enterkeyhint="search"
          aria-controls={shown !== null ? 'search-results' : undefined}
          onInput={(event) => {
            setCode(event.currentTarget.value);
            if (event.currentTarget.value === '') close();
          }}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
        />
        <button
          type="submit"
          class="button button-icon"
          aria-label={strings.searchButton}
          disabled={busy}
        >
          <Icon name="search" />
        </button>
      </form>
      <div class="search-result" role="status">
        {focused && code === '' && message === null && (
          <p class="search-hint">{strings.searchScanning}</p>
        )}
        {busy && <p>{strings.search.busy}</p>}
        {message !== null && <p>{message}</p>}
        {shown !== null && <p class="muted small">{strings.search.found(shown.found.length)}</p>}
        {container !== null && (
          <div>
            <ContainerContents container={container} />
          </div>
        )}
      </div>
      {shown !== null && (
        <ul
          class="search-results"
          id="search-results"
          ref={list}
          aria-label={strings.search.results(shown.q)}
        >
          {shown.found.map((found) => {
            const href = hrefOf(found);
            const inner = (
              <>
                <span class="search-kind">{strings.search.kinds[found.kind] ?? found.kind}</span>
                <span class="search-title">{found.title}</span>
                {found.subtitle && <span class="search-subtitle">{found.subtitle}</span>}
              </>
            );
            return (
              <li key={`${found.kind}-${found.id}`}>
                {href === null ? (
                  <span class="search-hit">{inner}</span>
                ) : (
                  <a
                    class="search-hit"
                    href={href}
                    onClick={() => {
                      setCode('');
                      setOpen(false);
                    }}
                  >
                    {inner}
                  </a>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
