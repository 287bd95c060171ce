import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call, type Answer, type Schemas } from '../../api/client';
import { useSignedIn } from '../../api/session';
import { useAnswer } from '../../ui/answer';
import { DownloadCsv } from '../../ui/download';
import { usePagedList } from '../../ui/paged';
import { Notice, ScreenHeader } from '../../ui/parts';
import { useTitle } from '../../ui/title';
import { words } from '../../ui/words';
import { FoldedFilters, LoadMore } from '../../ui/list';
import { strings } from './strings';

/** The filters of a plants or explants list, as its address carries them. */
export interface Filters {
  readonly q: string;
  readonly stage: string;
  readonly room_id: string;
  readonly status: string;
}

const FILTER_NAMES = ['q', 'stage', 'room_id', 'status'] as const;

const common = strings.lists.filters;

/** Rows per page: a screenful on a desk, never the whole lab. */
export const PAGE_SIZE = 25;

/**
 * The list query for one page under these filters: the empty ones left out, and a
 * status kept only when the list knows it (an address may carry any word).
 */
export function listQuery<S extends string>(
  filters: Filters,
  cursor: string | null,
  statuses: readonly S[],
) {
  return {
    limit: PAGE_SIZE,
    ...(filters.q ? { q: filters.q } : {}),
    ...(filters.stage ? { stage: filters.stage } : {}),
    ...(filters.room_id ? { room_id: filters.room_id } : {}),
    ...(statuses.includes(filters.status as S) ? { status: filters.status as S } : {}),
    ...(cursor ? { cursor } : {}),
  };
}

export interface ListStrings {
  readonly title: string;
  readonly lead: string;
  readonly search: string;
  readonly searchHint: string;
  readonly more: string;
  readonly loading: string;
  readonly empty: string;
  readonly emptyFiltered: string;
  readonly import: string;
}

/** The most records one label sheet takes (GET /labels/codes). */
const MAX_SELECTED = 240;

type Room = Schemas['Room'];

/**
 * A list of plants or explants that searches and filters (in the address, so a
 * filtered list can be bookmarked and the back button works) and pages by cursor.
 */
export function RecordList<
  T extends { id: string; current_stage: { name: string | null } | null },
>(props: {
  path: string;
  strings: ListStrings;
  statuses: readonly string[];
  fetchPage: (filters: Filters, cursor: string | null) => Promise<Answer<T[]>>;
  row: (item: T, roomName: (id: string | null) => string | null) => ComponentChildren;
  /** The list operation whose CSV "Download CSV" asks for, and the file's name. */
  csv: { readonly path: string; readonly file: string };
  /** Import's screen for this list, offered to those who may write its records. */
  imports?: { readonly href: string; readonly scope: string };
  /** Rows with a box to tick, for printing their labels. */
  select?: { kind: 'plant' | 'explant'; name: (item: T) => string };
  /** Buttons of this list beside Download CSV (New plant). */
  actions?: ComponentChildren;
  /** What opens above the filters (the New plant form). */
  opened?: ComponentChildren;
}) {
  const { strings } = props;
  useTitle(strings.title);
  const { query, route } = useLocation();
  const { can } = useSignedIn();
  const filters: Filters = {
    q: query.q ?? '',
    stage: query.stage ?? '',
    room_id: query.room_id ?? '',
    status: query.status ?? '',
  };
  const filtered = FILTER_NAMES.some((name) => filters[name] !== '');
  const key = FILTER_NAMES.map((name) => filters[name]).join('\u0000');

  const rooms = useAnswer<Room[]>(() =>
    call(api.GET('/api/v1/rooms', { params: { query: { limit: 200 } } })),
  );
  const roomNames = useMemo(() => {
    const map = new Map<string, string>();
    if (rooms?.ok) for (const room of rooms.data) map.set(room.id, room.name);
    return map;
  }, [rooms]);
  const roomName = (id: string | null) => (id === null ? null : (roomNames.get(id) ?? null));

  const list = usePagedList<T>((cursor) => props.fetchPage(filters, cursor), [key]);
  const [selected, setSelected] = useState<readonly string[]>([]);
  const toggle = (id: string, on: boolean) =>
    setSelected((now) =>
      on
        ? [...now.filter((x) => x !== id), id].slice(0, MAX_SELECTED)
        : now.filter((x) => x !== id),
    );
  const allShown = list.items.length > 0 && list.items.every((item) => selected.includes(item.id));

  const apply = (next: Filters) => {
    const params = new URLSearchParams();
    for (const name of FILTER_NAMES)
      if (next[name].trim() !== '') params.set(name, next[name].trim());
    const search = params.toString();
    route(search === '' ? props.path : `${props.path}?${search}`);
  };

  return (
    <>
      <ScreenHeader title={strings.title} lead={strings.lead}>
        <div class="header-actions">
          {props.actions}
          {props.imports && can(props.imports.scope) && (
            <a class="button" href={props.imports.href}>
              {strings.import}
            </a>
          )}
          <DownloadCsv
            path={props.csv.path}
            file={props.csv.file}
            query={{
              ...filters,
              // A status the list does not know is left out, as the list leaves it out.
              status: props.statuses.includes(filters.status) ? filters.status : '',
            }}
          />
        </div>
      </ScreenHeader>
      {props.opened}
      <FilterForm
        key={key}
        filters={filters}
        strings={strings}
        statuses={props.statuses}
        rooms={rooms?.ok ? rooms.data : []}
        stages={[...new Set(list.items.map((item) => item.current_stage?.name ?? ''))].filter(
          Boolean,
        )}
        onApply={apply}
        onClear={filtered ? () => route(props.path) : null}
      />
      {list.failure && <Notice tone="bad">{list.failure.error}</Notice>}
      <p class="muted small" role="status">
        {list.loading ? strings.loading : common.shown(list.items.length, list.more)}
      </p>
      {props.select && list.items.length > 0 && (
        <div class="selection-bar">
          <label class="selection-all">
            <input
              type="checkbox"
              checked={allShown}
              onChange={(event) =>
                setSelected(
                  event.currentTarget.checked
                    ? [...new Set([...selected, ...list.items.map((item) => item.id)])].slice(
                        0,
                        MAX_SELECTED,
                      )
                    : [],
                )
              }
            />
            {common.selectAll}
          </label>
          {selected.length > 0 && (
            <>
              <span role="status">{common.selected(selected.length)}</span>
              <a
                class="button button-primary"
                href={`/labels/print?${props.select.kind}_ids=${selected.join(',')}`}
              >
                {common.printLabels}
              </a>
              <button type="button" class="button button-quiet" onClick={() => setSelected([])}>
                {common.unselect}
              </button>
            </>
          )}
        </div>
      )}
      <ul class="rows record-rows" aria-busy={list.loading}>
        {list.items.map((item) => (
          <li class={props.select ? 'row row-selectable' : 'row'} key={item.id}>
            {props.select && (
              // The label around the box is the touch target (44 px), the box stays small.
              <label class="row-select">
                <input
                  type="checkbox"
                  aria-label={common.select(props.select.name(item))}
                  checked={selected.includes(item.id)}
                  onChange={(event) => toggle(item.id, event.currentTarget.checked)}
                />
              </label>
            )}
            {props.row(item, roomName)}
          </li>
        ))}
      </ul>
      {!list.loading && !list.failure && list.items.length === 0 && (
        <p>{filtered ? strings.emptyFiltered : strings.empty}</p>
      )}
      <LoadMore list={list} label={strings.more} />
    </>
  );
}

function FilterForm(props: {
  filters: Filters;
  strings: ListStrings;
  statuses: readonly string[];
  rooms: readonly Room[];
  stages: readonly string[];
  onApply: (filters: Filters) => void;
  onClear: (() => void) | null;
}) {
  const [draft, setDraft] = useState<Filters>(props.filters);
  const active = (['stage', 'room_id', 'status'] as const).filter((name) => props.filters[name]);
  const set = (name: keyof Filters, value: string) => setDraft({ ...draft, [name]: value });
  // A choice in a list applies at once; typed text applies on Enter or Find.
  const choose = (name: keyof Filters, value: string) => props.onApply({ ...draft, [name]: value });
  return (
    <form
      class="filters"
      role="search"
      aria-label={props.strings.title}
      onSubmit={(event) => {
        event.preventDefault();
        props.onApply(draft);
      }}
    >
      <div class="field filter-q">
        <label for="filter-q">{props.strings.search}</label>
        <div class="filter-q-input">
          <input
            id="filter-q"
            type="search"
            value={draft.q}
            placeholder={props.strings.searchHint}
            autocomplete="off"
            enterkeyhint="search"
            onInput={(event) => set('q', event.currentTarget.value)}
          />
          <button type="submit" class="button button-primary">
            {common.find}
          </button>
        </div>
      </div>
      {/* On a phone the filters other than the search fold; on a desk they stand in one line. */}
      <FoldedFilters id="filters-more" label={common.more(active.length)}>
        <div class="field filter-stage">
          <label for="filter-stage">{common.stage}</label>
          <input
            id="filter-stage"
            type="text"
            list="filter-stages"
            value={draft.stage}
            placeholder={common.stageHint}
            autocomplete="off"
            onInput={(event) => set('stage', event.currentTarget.value)}
          />
          <datalist id="filter-stages">
            {props.stages.map((stage) => (
              <option key={stage} value={stage} />
            ))}
          </datalist>
        </div>
        <div class="field">
          <label for="filter-room">{common.room}</label>
          <select
            id="filter-room"
            value={draft.room_id}
            onChange={(event) => choose('room_id', event.currentTarget.value)}
          >
            <option value="">{common.anyRoom}</option>
            {props.rooms.map((room) => (
              <option key={room.id} value={room.id}>
                {room.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-status">{common.status}</label>
          <select
            id="filter-status"
            value={draft.status}
            onChange={(event) => choose('status', event.currentTarget.value)}
          >
            <option value="">{common.anyStatus}</option>
            {props.statuses.map((status) => (
              <option key={status} value={status}>
                {words(status)}
              </option>
            ))}
          </select>
        </div>
        {props.onClear && (
          <button type="button" class="button button-quiet filter-clear" onClick={props.onClear}>
            {common.clear}
          </button>
        )}
      </FoldedFilters>
    </form>
  );
}
