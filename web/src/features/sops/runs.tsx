import { useMemo } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call } from '../../api/client';
import type { operations } from '../../api/schema';
import { useAnswer } from '../../ui/answer';
import { DownloadCsv } from '../../ui/download';
import { usePagedList } from '../../ui/paged';
import { Chip, Notice, ScreenHeader, TimeAgo } from '../../ui/parts';
import { useTitle } from '../../ui/title';
import { recordHref } from '../../ui/links';
import { words } from '../../ui/words';
import { RUN_STATUSES, runChip, runHref, type SopRun } from './model';
import { LoadMore } from '../../ui/list';
import { strings } from './strings';

type Query = NonNullable<operations['listSopRuns']['parameters']['query']>;
type Status = NonNullable<Query['status']>;

const FILTERS = ['sop_id', 'plant_id', 'explant_id'] as const;

export default function SopRuns() {
  useTitle(strings.runs.title);
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
      <ScreenHeader title={strings.runs.title} lead={strings.runs.lead}>
        <div class="header-actions">
          <a class="button" href="/sops">
            {strings.runs.sops}
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
        aria-label={strings.runs.title}
        onSubmit={(e) => e.preventDefault()}
      >
        <div class="field">
          <label for="filter-status">{strings.runs.status}</label>
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
            <option value="">{strings.runs.anyStatus}</option>
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
          {strings.runs.filtered} {strings.runs.kinds[record]}.{' '}
          <button type="button" class="button button-quiet" onClick={() => go({ status })}>
            {strings.runs.clear}
          </button>
        </p>
      )}
      {list.failure && <Notice tone="bad">{list.failure.error}</Notice>}
      <p class="muted small" role="status">
        {list.loading ? strings.runs.loading : ''}
      </p>
      <ul class="rows rows-stacked" aria-busy={list.loading}>
        {list.items.map((run) => (
          <li class="row" key={run.id}>
            <div class="row-main">
              <p class="row-title">
                <a href={runHref(run.id)}>
                  {(run.sopId && titles.get(run.sopId)) ?? strings.runs.unknownSop}
                  {run.batchCode ? ` · ${run.batchCode}` : ''}
                </a>
              </p>
              <p class="muted small">
                {strings.runs.started} <TimeAgo at={run.startedAt} />
              </p>
              {run.plantId && (
                <p class="small">
                  <a href={recordHref.plant(run.plantId)}>{strings.runs.plant}</a>
                </p>
              )}
              {run.explantId && (
                <p class="small">
                  <a href={recordHref.explant(run.explantId)}>{strings.runs.explant}</a>
                </p>
              )}
            </div>
            <div class="row-status">
              <Chip tone={runChip(run).tone}>{runChip(run).words}</Chip>
            </div>
          </li>
        ))}
      </ul>
      {!list.loading && !list.failure && list.items.length === 0 && <p>{strings.runs.empty}</p>}
      <LoadMore list={list} label={strings.runs.more} />
    </>
  );
}
