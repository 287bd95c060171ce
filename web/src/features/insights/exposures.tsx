import { useEffect, useRef } from 'preact/hooks';
import { api, call } from '../../api/client';
import { useAnswer } from '../../ui/answer';
import { recordHref } from '../../ui/links';
import { words as wordsOf } from '../../ui/words';
import { LoadMore } from '../../ui/list';
import { usePagedList } from '../../ui/paged';
import { Chip, Notice } from '../../ui/parts';
import { FiguresTable } from './chart';
import { exposuresQuery, type Exposure, type Filters } from './model';
import { strings } from './strings';

const words = strings.drill;
const PAGE = 50;

/**
 * The drill-down from a bar: the handlings the group's figures count (the same
 * grouping, period and window), newest first, a page at a time; all of them, or
 * only those followed by a contamination, or only the others.
 */
export function Exposures(props: {
  filters: Filters;
  label: string;
  onChange: (changes: Partial<Filters>) => void;
}) {
  const { filters } = props;
  const list = usePagedList<Exposure & { id: string }>(
    async (cursor) => {
      const answer = await call(
        api.GET('/api/v1/insights/exposures', {
          params: {
            query: { ...exposuresQuery(filters), limit: PAGE, ...(cursor ? { cursor } : {}) },
          },
        }),
      );
      // Rows have no id of their own: their place in the list names them.
      return answer.ok
        ? { ...answer, data: answer.data.map((row, i) => ({ ...row, id: `${cursor ?? ''}#${i}` })) }
        : answer;
    },
    [filters.by, filters.group, filters.since, filters.until, filters.window, filters.contaminated],
  );
  // The lab's names of its explant stages: an exposure names its stage by key.
  const lists = useAnswer(() => call(api.GET('/api/v1/stage-lists')));
  const stageName = (key: string) =>
    (lists?.ok ? lists.data.explant.find((stage) => stage.key === key)?.name : undefined) ??
    wordsOf(key);
  const section = useRef<HTMLElement>(null);
  // Opened from a bar or a link: brought into view, under the chart.
  useEffect(() => {
    section.current?.scrollIntoView({ block: 'start' });
  }, [filters.group]);
  return (
    <section
      ref={section}
      class="insight-exposures"
      aria-labelledby="exposures-title"
      id="exposures"
    >
      <h3 id="exposures-title">{words.title(props.label)}</h3>
      <div class="insight-views" role="group" aria-label={words.which}>
        {(['', 'true', 'false'] as const).map((which) => (
          <button
            type="button"
            key={which}
            class={filters.contaminated === which ? 'button button-primary' : 'button'}
            aria-pressed={filters.contaminated === which}
            onClick={() => props.onChange({ contaminated: which })}
          >
            {words.only[which === '' ? 'all' : which]}
          </button>
        ))}
        <button
          type="button"
          class="button button-quiet"
          onClick={() => props.onChange({ group: '', contaminated: '' })}
        >
          {words.close}
        </button>
      </div>
      {list.failure && <Notice tone="bad">{list.failure.error}</Notice>}
      {!list.loading && !list.failure && list.items.length === 0 && (
        <p class="muted">{words.none}</p>
      )}
      {list.items.length > 0 && (
        <FiguresTable
          label={words.table(props.label)}
          columns={words.columns}
          csv={{
            path: '/api/v1/insights/exposures',
            query: exposuresQuery(filters),
            file: 'exposures',
          }}
        >
          {list.items.map((row) => (
            <tr
              key={row.id}
              data-explant={row.explant_id}
              data-contaminated={String(row.contaminated)}
            >
              <th scope="row">
                <time dateTime={row.handled_at} title={new Date(row.handled_at).toLocaleString()}>
                  {new Date(row.handled_at).toLocaleDateString()}
                </time>
              </th>
              <td>
                <a href={recordHref.explant(row.explant_id)}>{row.explant_label}</a>
              </td>
              <td>{words.kinds[row.kind] ?? row.kind}</td>
              <td>{row.operator.label}</td>
              <td>{row.location ?? '–'}</td>
              <td>{row.stage === null ? '–' : stageName(row.stage)}</td>
              <td>
                {row.contaminated && row.contamination_id ? (
                  <a href={recordHref.contamination(row.contamination_id)}>
                    <Chip tone="bad">{words.contaminated}</Chip>
                  </a>
                ) : row.contaminated ? (
                  <Chip tone="bad">{words.contaminated}</Chip>
                ) : (
                  <span class="muted">{words.clean}</span>
                )}
              </td>
            </tr>
          ))}
        </FiguresTable>
      )}
      {list.loading && <p aria-busy="true">{strings.loading}</p>}
      <LoadMore list={list} label={words.more} />
    </section>
  );
}
