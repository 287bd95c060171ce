import { api, call, type Schemas } from '../../api/client';
import { usePagedList } from '../../ui/paged';
import { Chip, Notice, ScreenHeader } from '../../ui/parts';
import { DownloadCsv } from '../../ui/download';
import { useTitle } from '../../ui/title';
import { sopHref } from './model';
import { LoadMore } from '../../ui/list';
import { strings } from './strings';

type SopSummary = Schemas['SopSummary'];

export default function Sops() {
  useTitle(strings.sops.title);
  const list = usePagedList<SopSummary>((cursor) =>
    call(
      api.GET('/api/v1/sops', { params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } } }),
    ),
  );
  return (
    <>
      <ScreenHeader title={strings.sops.title} lead={strings.sops.lead}>
        <div class="header-actions">
          <a class="button" href="/sop-runs">
            {strings.sops.runs}
          </a>
          <DownloadCsv path="/api/v1/sops" query={{}} file="sops" />
        </div>
      </ScreenHeader>
      {list.failure && <Notice tone="bad">{list.failure.error}</Notice>}
      {list.loading && list.items.length === 0 && <p aria-busy="true">{strings.sops.loading}</p>}
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
                  strings.sops.version(sop.currentVersion),
                  sop.estimatedTimeMinutes === null
                    ? null
                    : strings.sops.minutes(sop.estimatedTimeMinutes),
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
      {!list.loading && !list.failure && list.items.length === 0 && <p>{strings.sops.empty}</p>}
      <LoadMore list={list} label={strings.sops.more} />
    </>
  );
}
