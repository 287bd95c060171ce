import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { PagedList } from './paged';
import { Notice } from './parts';

/**
 * A paged list as rows: the API's refusal, the rows (`row` gives each `<li>`),
 * what shows while it loads and when it is empty, and a More button while the
 * API has another page.
 */
export function PagedRows<T extends { id: string }>(props: {
  list: PagedList<T>;
  row: (item: T) => ComponentChildren;
  /** Shown while a page loads; nothing when left out. */
  loading?: string;
  empty: string;
  more: string;
  class?: string;
}) {
  const { list } = props;
  return (
    <>
      {list.failure && <Notice tone="bad">{list.failure.error}</Notice>}
      <ul class={props.class ? `rows ${props.class}` : 'rows'} aria-busy={list.loading}>
        {list.items.map(props.row)}
      </ul>
      {list.loading && props.loading && <p>{props.loading}</p>}
      {!list.loading && !list.failure && list.items.length === 0 && <p>{props.empty}</p>}
      <LoadMore list={list} label={props.more} />
    </>
  );
}

/** "More": the list's next page, while the API has one. */
export function LoadMore(props: {
  list: Pick<PagedList<unknown>, 'more' | 'loading' | 'loadMore'>;
  label: string;
}) {
  const { list } = props;
  if (!list.more) return null;
  return (
    <button
      type="button"
      class="button"
      disabled={list.loading}
      onClick={() => void list.loadMore()}
    >
      {props.label}
    </button>
  );
}

/**
 * The question before an action that cannot be undone: what will happen, a
 * button that does it and one that does not.
 */
export function Confirm(props: {
  /** The action, naming the group for screen readers. */
  label: string;
  question: string;
  yes: string;
  no: string;
  busy: boolean;
  onYes: () => void;
  onNo: () => void;
  /** Tone of the yes button: danger unless the action is harmless. */
  tone?: 'danger' | 'primary';
  /** Takes the focus when it appears (on its safe answer), as the question now comes first. */
  focus?: boolean;
  /** More of the question: what it concerns, listed. */
  children?: ComponentChildren;
}) {
  const no = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLDivElement>(null);
  // Before it is first painted (a layout effect), so the focus never lands after a tap
  // or a key the person already gave elsewhere.
  useLayoutEffect(() => {
    if (!props.focus) return;
    // The whole question in view, from its first line, with the focus on its safe answer.
    box.current?.scrollIntoView({ block: 'nearest' });
    no.current?.focus({ preventScroll: true });
  }, []);
  return (
    <div class="confirm" role="group" aria-label={props.label} ref={box}>
      <p>{props.question}</p>
      {props.children}
      <div class="actions">
        <button
          type="button"
          class={`button button-${props.tone ?? 'danger'}`}
          disabled={props.busy}
          onClick={props.onYes}
        >
          {props.yes}
        </button>
        <button type="button" class="button button-quiet" ref={no} onClick={props.onNo}>
          {props.no}
        </button>
      </div>
    </div>
  );
}

/**
 * A form's filters folded behind one button on a phone, so the first rows or the
 * chart show on the first screen; on a desk they stand open (styles.css).
 */
export function FoldedFilters(props: { id: string; label: string; children: ComponentChildren }) {
  const [unfolded, setUnfolded] = useState(false);
  return (
    <>
      <button
        type="button"
        class="button filters-toggle"
        aria-expanded={unfolded}
        aria-controls={props.id}
        onClick={() => setUnfolded(!unfolded)}
      >
        {props.label}
      </button>
      <div id={props.id} class={unfolded ? 'filters-more filters-open' : 'filters-more'}>
        {props.children}
      </div>
    </>
  );
}
