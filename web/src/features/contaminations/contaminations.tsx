import { useLocation } from 'preact-iso';
import { api, call } from '../../api/client';
import { DownloadCsv } from '../../ui/download';
import { PagedRows } from '../../ui/list';
import { usePagedList } from '../../ui/paged';
import { personName, usePeopleNames, type PeopleNames } from '../../ui/people';
import { useRecordNames } from '../../ui/record-names';
import { Chip, ScreenHeader, TimeAgo } from '../../ui/parts';
import { useTitle } from '../../ui/title';
import { contaminationTone, typeWords, type Contamination } from './model';
import { recordHref } from '../../ui/links';
import { words } from '../../ui/words';
import { strings } from './strings';

type Show = 'open' | 'resolved' | 'all';
const PAGE = 25;

/** The contamination logs: open ones first; which to show is kept in the address. */
export default function Contaminations() {
  useTitle(strings.list.title);
  const { query, route } = useLocation();
  const show: Show = query.show === 'resolved' || query.show === 'all' ? query.show : 'open';
  const people = usePeopleNames();
  const csvQuery = show === 'all' ? {} : { open: show === 'open' };
  return (
    <>
      <ScreenHeader title={strings.list.title} lead={strings.list.lead}>
        <DownloadCsv path="/api/v1/contaminations" query={csvQuery} file="contaminations" />
      </ScreenHeader>
      <div class="field board-filter">
        <label for="contaminations-show">{strings.list.show}</label>
        <select
          id="contaminations-show"
          value={show}
          onChange={(event) => {
            const next = event.currentTarget.value;
            route(next === 'open' ? '/contaminations' : `/contaminations?show=${next}`);
          }}
        >
          {strings.list.shows.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {show !== 'resolved' && (
        <Section
          key="open"
          open
          title={strings.list.open}
          empty={strings.list.emptyOpen}
          people={people}
        />
      )}
      {show !== 'open' && (
        <Section
          key="closed"
          open={false}
          title={strings.list.closed}
          empty={strings.list.emptyClosed}
          people={people}
        />
      )}
    </>
  );
}

function Section(props: { open: boolean; title: string; empty: string; people: PeopleNames }) {
  const list = usePagedList<Contamination>(
    (cursor) =>
      call(
        api.GET('/api/v1/contaminations', {
          params: { query: { open: props.open, limit: PAGE, ...(cursor ? { cursor } : {}) } },
        }),
      ),
    [props.open],
  );
  const id = props.open ? 'contaminations-open' : 'contaminations-closed';
  // Which culture each log is on, by name: read once per plant or explant shown.
  const names = useRecordNames(
    list.items.flatMap((c) => [
      ...c.explant_ids.map((id) => ({ kind: 'explant' as const, id })),
      ...c.plant_ids.map((id) => ({ kind: 'plant' as const, id })),
    ]),
  );
  return (
    <section class="panel" aria-labelledby={id}>
      <h2 id={id}>{props.title}</h2>
      <PagedRows
        list={list}
        loading={strings.list.loading}
        empty={props.empty}
        more={strings.list.more}
        row={(c) => (
          <li class="row" key={c.id}>
            <div class="row-main">
              <p class="row-title">
                <a href={recordHref.contamination(c.id)}>{c.issue}</a>
              </p>
              <OnRecords log={c} names={names} />
              <p class="muted small">
                {typeWords(c)} · {words(c.severity)}
                {c.stage ? ` · ${c.stage}` : ''}
                {c.vessels_affected !== null
                  ? ` · ${strings.list.vessels(c.vessels_affected)}`
                  : ''}
              </p>
              <p class="small">
                {strings.list.observed} <TimeAgo at={c.observed_at ?? c.created_at} />
                {props.people !== null &&
                  ` ${strings.list.by(personName(props.people, c.logged_by, strings.list.someone)!)}`}
              </p>
            </div>
            <div class="row-status">
              <Chip tone={contaminationTone(c.status)}>{words(c.status)}</Chip>
            </div>
          </li>
        )}
      />
    </section>
  );
}

/** The plants and explants a log is on, each by its name and a link to it. */
function OnRecords(props: { log: Contamination; names: ReadonlyMap<string, string> }) {
  const records = [
    ...props.log.explant_ids.map((id) => ({
      href: recordHref.explant(id),
      id,
      kind: 'explant' as const,
    })),
    ...props.log.plant_ids.map((id) => ({
      href: recordHref.plant(id),
      id,
      kind: 'plant' as const,
    })),
  ];
  if (records.length === 0) return null;
  return (
    <p class="row-records">
      {strings.list.on}{' '}
      {records.map((record, i) => (
        <span key={record.id}>
          {i > 0 && ', '}
          <a href={record.href}>{props.names.get(record.id) ?? strings.list.kinds[record.kind]}</a>
        </span>
      ))}
    </p>
  );
}
