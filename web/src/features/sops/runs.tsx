import { useMemo } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call } from '../../api/client';
import type { operations } from '../../api/schema';
import { useAnswer } from '../../ui/answer';
import { DownloadCsv } from '../../ui/download';
import { usePagedList } from '../../ui/paged';
import { Chip, Notice, ScreenHeader, TimeAgo } from '../../ui/parts';
import { useTitle } from '../../ui/title';
import { recordHref, words } from '../records/model';
import { RUN_STATUSES, runHref, runTone, type SopRun } from './model';
import { LoadMore } from '../../ui/list';

type Query = NonNullable<operations['listSopRuns']['parameters']['query']>;
type Status = NonNullable<Query['status']>;

const strings = {
  title: 'SOP runs',
  lead: 'Procedures followed at the bench, newest first. Open one to carry on or to read what was recorded.',
  sops: 'SOPs',
  status: 'Status',
  anyStatus: 'Any status',
  filtered: 'Showing the runs of one',
  kinds: { sop_id: 'SOP', plant_id: 'plant', explant_id: 'explant' },
  clear: 'Show all runs',
  loading: 'Loading runs…',
  empty: 'No runs here yet. Start one from an SOP.',
  more: 'More runs',
  progress: (p: number) => `${Math.round(p)}% of steps done`,
  started: 'started',
  plant: 'Plant',
  explant: 'Explant',
  unknownSop: 'SOP',
} as const;

const FILTERS = ['sop_id', 'plant_id', 'explant_id'] as const;

export default function SopRuns() {
  useTitle(strings.title);
  const { query, route } = useLocation();
  const status = (RUN_STATUSES as readonly string[]).includes(query.status ?? '')
    ? (query.status as Status)
    : undefined;
  const record = FILTERS.find((name) => (query[name] ?? '') !== '');
  const key = [status, ...FILTERS.map((name) => query[name] ?? '')].join('\u0000');
  const list = usePagedList<SopRun>(
    (cursor) =>
      call(
        api.GET('/api/v1/sop-runs', {
          params: {
            query: {
              limit: 25,
              ...(status ? { status } : {}),
              ...(record ? { [record]: query[record] } : {}),
              ...(cursor ? { cursor } : {}),
            },
          },
        }),
      ),
    [key],
  );
  const sops = useAnswer(() =>
    call(api.GET('/api/v1/sops', { params: { query: { limit: 200 } } })),
  );
  const titles = useMemo(
    () => new Map(sops?.ok ? sops.data.map((s) => [s.id, s.title] as const) : []),
    [sops],
  );
  const go = (next: Record<string, string | undefined>) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(next)) if (value) params.set(name, value);
    const search = params.toString();
    route(search === '' ? '/sop-runs' : `/sop-runs?${search}`);
  };
  return (
    <>
      <ScreenHeader title={strings.title} lead={strings.lead}>
        <div class="header-actions">
          <a class="button" href="/sops">
            {strings.sops}
          </a>
          <DownloadCsv
            path="/api/v1/sop-runs"
            query={{ status, ...(record ? { [record]: query[record] } : {}) }}
            file="sop-runs"
          />
        </div>
      </ScreenHeader>
      <form
        class="filters"
        role="search"
        aria-label={strings.title}
        onSubmit={(e) => e.preventDefault()}
      >
        <div class="field">
          <label for="filter-status">{strings.status}</label>
          <select
            id="filter-status"
            value={status ?? ''}
            onChange={(event) =>
              go({
                status: event.currentTarget.value,
                ...(record ? { [record]: query[record] } : {}),
              })
            }
          >
            <option value="">{strings.anyStatus}</option>
            {RUN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {words(s)}
              </option>
            ))}
          </select>
        </div>
      </form>
      {record && (
        <p>
          {strings.filtered} {strings.kinds[record]}.{' '}
          <button type="button" class="button button-quiet" onClick={() => go({ status })}>
            {strings.clear}
          </button>
        </p>
      )}
      {list.failure && <Notice tone="bad">{list.failure.error}</Notice>}
      <p class="muted small" role="status">
        {list.loading ? strings.loading : ''}
      </p>
      <ul class="rows" aria-busy={list.loading}>
        {list.items.map((run) => (
          <li class="row" key={run.id}>
            <div class="row-main">
              <p class="row-title">
                <a href={runHref(run.id)}>
                  {(run.sopId && titles.get(run.sopId)) ?? strings.unknownSop}
                  {run.batchCode ? ` · ${run.batchCode}` : ''}
                </a>
              </p>
              <p class="muted small">
                {strings.progress(run.progress)} · {strings.started} <TimeAgo at={run.startedAt} />
              </p>
              {run.plantId && (
                <p class="small">
                  <a href={recordHref.plant(run.plantId)}>{strings.plant}</a>
                </p>
              )}
              {run.explantId && (
                <p class="small">
                  <a href={recordHref.explant(run.explantId)}>{strings.explant}</a>
                </p>
              )}
            </div>
            <div class="row-status">
              <Chip tone={runTone(run.status)}>{words(run.status)}</Chip>
            </div>
          </li>
        ))}
      </ul>
      {!list.loading && !list.failure && list.items.length === 0 && <p>{strings.empty}</p>}
      <LoadMore list={list} label={strings.more} />
    </>
  );
}
