import { useLocation } from 'preact-iso';
import { api, call } from '../../api/client';
import { useSignedIn } from '../../api/session';
import { useAnswer } from '../../ui/answer';
import { PagedRows } from '../../ui/list';
import { usePagedList } from '../../ui/paged';
import { Chip, ScreenHeader, TimeAgo } from '../../ui/parts';
import { useTitle } from '../../ui/title';
import { BATCH_STATUSES, batchName, dayPart, type BatchStatus, type MediaBatch } from './model';
import { useRecipes } from './recipes';
import { BATCH_TONES } from './tones';
import { strings } from './strings';

const PAGE = 25;
/** Cultures counted per batch in the list; more reads as "20+". */
const COUNTED = 20;
const s = strings.list;

/** The lab's media batches, newest first; which status to show is kept in the address. */
export default function MediaBatches() {
  useTitle(s.title);
  const { can } = useSignedIn();
  const { query, route } = useLocation();
  const status = (BATCH_STATUSES as readonly string[]).includes(query.status ?? '')
    ? (query.status as BatchStatus)
    : null;
  const recipes = useRecipes();
  const list = usePagedList<MediaBatch>(
    (cursor) =>
      call(
        api.GET('/api/v1/media-batches', {
          params: {
            query: {
              limit: PAGE,
              ...(status === null ? {} : { status }),
              ...(cursor ? { cursor } : {}),
            },
          },
        }),
      ),
    [status],
  );
  return (
    <>
      <ScreenHeader title={s.title} lead={s.lead}>
        <div class="header-actions">
          {can('write:media_batches') && (
            <a class="button button-primary" href="/media/new">
              {s.create}
            </a>
          )}
          <a class="button" href="/stock">
            {s.stock}
          </a>
        </div>
      </ScreenHeader>
      <div class="field board-filter">
        <label for="media-show">{s.show}</label>
        <select
          id="media-show"
          value={status ?? ''}
          onChange={(event) => {
            const next = event.currentTarget.value;
            route(next === '' ? '/media' : `/media?status=${next}`);
          }}
        >
          <option value="">{s.all}</option>
          {BATCH_STATUSES.map((value) => (
            <option key={value} value={value}>
              {strings.status[value]}
            </option>
          ))}
        </select>
      </div>
      <PagedRows
        list={list}
        loading={s.loading}
        empty={s.empty}
        more={s.more}
        row={(batch) => (
          <li class="row" key={batch.id} data-batch={batch.id}>
            <div class="row-main">
              <p class="row-title">
                <a href={`/media/${batch.id}`}>
                  {batchName(recipes?.get(batch.recipe_id)?.title, batch)}
                </a>
              </p>
              <p class="small">
                {s.made} <TimeAgo at={batch.prepared_at} /> · {s.expires}{' '}
                {dayPart(batch.expires_at) ?? s.noExpiry} · {batch.volume_ml} mL
              </p>
              <Cultures batch={batch} />
            </div>
            <div class="row-status">
              <Chip tone={BATCH_TONES[batch.status] ?? 'info'}>
                {strings.status[batch.status as keyof typeof strings.status] ?? batch.status}
              </Chip>
            </div>
          </li>
        )}
      />
    </>
  );
}

/** How many cultures went onto a batch (up to a page of them, then "20+"). */
function Cultures(props: { batch: MediaBatch }) {
  const answer = useAnswer(
    () =>
      call(
        api.GET('/api/v1/media-batches/{id}/explants', {
          params: { path: { id: props.batch.id }, query: { limit: COUNTED } },
        }),
      ),
    [props.batch.id],
  );
  if (answer === null || !answer.ok) return null;
  const n = answer.data.length;
  const count = answer.nextCursor === null ? String(n) : `${n}+`;
  return (
    <p class="muted small">
      {s.cultures}: {count}
    </p>
  );
}
