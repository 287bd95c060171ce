import type { RefObject } from 'preact';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call, type Schemas } from '../api/client';
import { ContainerContents } from '../features/labels/contents';
import { recordHref } from '../ui/links';
import { Icon } from './icons';
import { strings } from './strings';

type Resolution = Schemas['LabelResolution'];

/**
 * The search field on every screen. A barcode scanner types the label's code
 * into it and presses Enter: the label's record opens. A container's label
 * lists what it holds.
 */
export function Search(props: { inputRef: RefObject<HTMLInputElement | null> }) {
  const { route } = useLocation();
  const [code, setCode] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [container, setContainer] = useState<Resolution | null>(null);
  const [focused, setFocused] = useState(false);

  const find = async (event: Event) => {
    event.preventDefault();
    const barcode = code.trim();
    if (barcode === '') return;
    setContainer(null);
    const answer = await call(
      api.GET('/api/v1/labels/resolve', { params: { query: { barcode } } }),
    );
    if (!answer.ok) {
      setMessage(answer.failure.error);
      return;
    }
    setMessage(null);
    const found = answer.data;
    if (found.record_type === 'container') {
      setContainer(found);
      return;
    }
    setCode('');
    route(recordHref[found.record_type](found.record_id));
  };

  return (
    <div class="search">
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
          onInput={(event) => setCode(event.currentTarget.value)}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
        />
        <button type="submit" class="button button-icon" aria-label={strings.searchButton}>
          <Icon name="search" />
        </button>
      </form>
      <div class="search-result" role="status">
        {focused && code === '' && message === null && (
          <p class="search-hint">{strings.searchScanning}</p>
        )}
        {message !== null && <p>{message}</p>}
        {container !== null && (
          <div>
            <ContainerContents container={container} />
          </div>
        )}
      </div>
    </div>
  );
}
