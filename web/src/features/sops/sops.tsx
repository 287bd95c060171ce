import { api, call, type Schemas } from '../../api/client';
import { usePagedList } from '../../ui/paged';
import { Chip, Notice, ScreenHeader } from '../../ui/parts';
import { DownloadCsv } from '../../ui/download';
import { useTitle } from '../../ui/title';
import { sopHref } from './model';
import { LoadMore } from '../../ui/list';

type SopSummary = Schemas['SopSummary'];

const strings = {
  title: 'SOPs',
  lead: 'Standard operating procedures. Open one to read its steps and start a run at the bench.',
  runs: 'All SOP runs',
  loading: 'Loading SOPs…',
  empty: 'No SOPs yet. They come in with the lab’s import file.',
  more: 'More SOPs',
  version: (n: number) => (n === 0 ? 'no version' : `version ${n}`),
  minutes: (n: number) => `about ${n} min`,
} as const;

export default function Sops() {
  useTitle(strings.title);
  const list = usePagedList<SopSummary>((cursor) =>
    call(
      api.GET('/api/v1/sops', { params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } } }),
    ),
  );
  return (
    <>
      <ScreenHeader title={strings.title} lead={strings.lead}>
        <div class="header-actions">
          <a class="button" href="/sop-runs">
            {strings.runs}
          </a>
          <DownloadCsv path="/api/v1/sops" query={{}} file="sops" />
        </div>
      </ScreenHeader>
      {list.failure && <Notice tone="bad">{list.failure.error}</Notice>}
      {list.loading && list.items.length === 0 && <p aria-busy="true">{strings.loading}</p>}
      <ul class="rows">
        {list.items.map((sop) => (
          <li class="row" key={sop.id}>
            <div class="row-main">
              <p class="row-title">
                <a href={sopHref(sop.id)}>{sop.title}</a>
              </p>
              <p class="muted small">
                {[
                  sop.category,
                  strings.version(sop.currentVersion),
                  sop.estimatedTimeMinutes === null
                    ? null
                    : strings.minutes(sop.estimatedTimeMinutes),
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
            </div>
            <div class="row-status">
              <Chip tone={sop.status === 'active' ? 'ok' : 'off'}>{sop.status ?? 'active'}</Chip>
            </div>
          </li>
        ))}
      </ul>
      {!list.loading && !list.failure && list.items.length === 0 && <p>{strings.empty}</p>}
      <LoadMore list={list} label={strings.more} />
    </>
  );
}
