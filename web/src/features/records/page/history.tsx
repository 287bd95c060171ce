import type { ComponentChildren } from 'preact';
import { api, call, type Schemas } from '../../../api/client';
import { usePagedList, type PagedList } from '../../../ui/paged';
import { Chip, Notice, TimeAgo } from '../../../ui/parts';
import { recordHref } from '../../../ui/links';
import { words } from '../../../ui/words';
import { useRecordPage } from './context';
import { strings } from '../strings';
import { LoadMore } from '../../../ui/list';

type Stage = Schemas['Stage'];
type Transfer = Schemas['Transfer'];
type Contamination = Schemas['Contamination'];

const PAGE = 20;
const page = (cursor: string | null) => ({ limit: PAGE, ...(cursor ? { cursor } : {}) });

/** A titled part of a record page: a list read page by page, with its empty and failed states. */
export function ListPart<T extends { id: string }>(props: {
  id: string;
  title: string;
  list: PagedList<T>;
  empty: string;
  more: string;
  ordered?: boolean;
  children: (item: T) => ComponentChildren;
}) {
  const { list } = props;
  const Items = props.ordered ? 'ol' : 'ul';
  return (
    <section class="panel" aria-labelledby={props.id} aria-busy={list.loading}>
      <h2 id={props.id}>{props.title}</h2>
      {list.failure && <Notice tone="bad">{list.failure.error}</Notice>}
      {!list.loading && !list.failure && list.items.length === 0 && (
        <p class="muted">{props.empty}</p>
      )}
      {list.items.length > 0 && <Items class="rows">{list.items.map(props.children)}</Items>}
      <LoadMore list={list} label={props.more} />
    </section>
  );
}

/** The record's stages, newest first: where it is now, and the way it came. */
export function TimelinePart() {
  const { ref, version, stageName, roomName } = useRecordPage();
  const list = usePagedList<Stage>(
    (cursor) => call(api.GET('/api/v1/stages', { params: { query: { ...ref, ...page(cursor) } } })),
    [JSON.stringify(ref), version],
  );
  return (
    <ListPart
      id="timeline-title"
      title={strings.timeline.title}
      list={list}
      empty={strings.timeline.empty}
      more={strings.timeline.more}
      ordered
    >
      {(stage) => {
        const room = roomName(stage.room_id);
        const current = stage.status === 'active';
        return (
          <li
            key={stage.id}
            class={current ? 'row timeline-entry timeline-current' : 'row timeline-entry'}
          >
            <div class="row-main">
              <p class="row-title">{stageName(stage.stage)}</p>
              <p class="small">
                <TimeAgo at={stage.entered_on} />
                {stage.completed_at && (
                  <>
                    {' '}
                    {strings.timeline.until} <TimeAgo at={stage.completed_at} />
                  </>
                )}
                {room ? ` · ${room}` : ''}
              </p>
              {stage.notes && <p class="muted small">{stage.notes}</p>}
            </div>
            <div class="row-status">
              {current ? (
                <Chip tone="ok">{strings.timeline.current}</Chip>
              ) : (
                <Chip tone="off">{words(stage.status)}</Chip>
              )}
            </div>
          </li>
        );
      }}
    </ListPart>
  );
}

/** Transfers onto fresh medium, newest first, with the counts taken at each. */
export function TransfersPart() {
  const { ref, version } = useRecordPage();
  const list = usePagedList<Transfer>(
    (cursor) =>
      call(api.GET('/api/v1/transfers', { params: { query: { ...ref, ...page(cursor) } } })),
    [JSON.stringify(ref), version],
  );
  return (
    <ListPart
      id="transfers-title"
      title={strings.transfers.title}
      list={list}
      empty={strings.transfers.empty}
      more={strings.transfers.more}
    >
      {(transfer) => {
        const counts = strings.transfers.counts(transfer.vessel_count, transfer.plantlet_count);
        const route = strings.transfers.route(transfer.from_location, transfer.to_location);
        return (
          <li key={transfer.id} class="row">
            <div class="row-main">
              <p class="row-title">
                {strings.transfers.cycle(transfer.transfer_cycle)}
                {counts && <span class="record-counts"> · {counts}</span>}
              </p>
              <p class="small">
                <TimeAgo at={transfer.transfer_date} />
                {route ? ` · ${route}` : ''}
              </p>
              {transfer.notes && <p class="muted small">{transfer.notes}</p>}
            </div>
            {transfer.status !== 'completed' && (
              <div class="row-status">
                <Chip tone="warn">{words(transfer.status)}</Chip>
              </div>
            )}
          </li>
        );
      }}
    </ListPart>
  );
}

const OPEN = ['active', 'quarantined', 'under investigation'];

/** Contaminations logged on the record, newest first; each opens its own page. */
export function ContaminationsPart() {
  const { ref, version } = useRecordPage();
  const list = usePagedList<Contamination>(
    (cursor) =>
      call(api.GET('/api/v1/contaminations', { params: { query: { ...ref, ...page(cursor) } } })),
    [JSON.stringify(ref), version],
  );
  return (
    <ListPart
      id="contaminations-title"
      title={strings.contaminations.title}
      list={list}
      empty={strings.contaminations.empty}
      more={strings.contaminations.more}
    >
      {(log) => {
        const open = OPEN.includes(log.status);
        return (
          <li key={log.id} class="row">
            <div class="row-main">
              <p class="row-title">
                <a href={recordHref.contamination(log.id)}>{log.issue}</a>
              </p>
              <p class="small">
                {words(log.type === 'other' ? (log.type_other ?? 'other') : (log.type ?? ''))}
                {' · '}
                {log.severity}
                {' · '}
                <TimeAgo at={log.observed_at ?? log.created_at} />
                {log.vessels_affected !== null && log.vessels_affected > 0
                  ? ` · ${strings.contaminations.vessels(log.vessels_affected)}`
                  : ''}
              </p>
            </div>
            <div class="row-status">
              <Chip tone={open ? 'bad' : 'ok'}>{log.status}</Chip>
            </div>
          </li>
        );
      }}
    </ListPart>
  );
}
