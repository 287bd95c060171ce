import { api, call } from '../../api/client';
import { useAnswer } from '../../ui/answer';
import { Chip, Notice } from '../../ui/parts';
import { FiguresTable, InsightChart } from './chart';
import { Exposures } from './exposures';
import {
  byRate,
  contaminationQuery,
  isWorse,
  groupKey,
  searchOf,
  weekStart,
  type ContaminationGroup,
  type ContaminationMeta,
  type Filters,
} from './model';
import { percent, strings } from './strings';

const words = strings.contamination;

/** One contamination question to the API: the filters' grouping, period and window. */
function useContamination(filters: Filters, by: Filters['by']) {
  return useAnswer(
    () =>
      call(
        api.GET('/api/v1/insights/contamination', {
          params: { query: contaminationQuery(filters, by) },
        }),
      ),
    [by, filters.since, filters.until, filters.window],
  );
}

/**
 * Contamination by the grouping picked: a bar per group, highest rate first, with
 * its interval and the overall rate; the groups whose whole interval lies above
 * the overall rate marked worse (in red and in words). Then the weekly trend.
 */
export function Contamination(props: {
  filters: Filters;
  own: boolean;
  onChange: (changes: Partial<Filters>) => void;
}) {
  const { filters } = props;
  const answer = useContamination(filters, filters.by);
  const by = strings.by[filters.by] ?? filters.by;
  return (
    <>
      <section class="panel insight-part" aria-labelledby="contamination-title">
        <h2 id="contamination-title">{words.title(by)}</h2>
        <p class="muted">{props.own ? words.helpOwn : words.help}</p>
        {answer === null && <p aria-busy="true">{strings.loading}</p>}
        {answer && !answer.ok && <Notice tone="bad">{answer.failure.error}</Notice>}
        {answer?.ok && (
          <Groups
            groups={answer.data}
            meta={answer.meta as ContaminationMeta}
            by={by}
            filters={filters}
            onChange={props.onChange}
          />
        )}
      </section>
      <Trend filters={filters} />
    </>
  );
}

function Groups(props: {
  groups: ContaminationGroup[];
  meta: ContaminationMeta;
  by: string;
  filters: Filters;
  onChange: (changes: Partial<Filters>) => void;
}) {
  const { meta, by, filters } = props;
  const drill = (group: ContaminationGroup) => ({
    group: groupKey(group.group),
    contaminated: '' as const,
  });
  const drilled = props.groups.find((group) => groupKey(group.group) === filters.group);
  const overall = meta.overall.rate;
  const groups = byRate(props.groups);
  const worse = groups.filter((group) => isWorse(group, overall)).length;
  return (
    <>
      <p class="insight-overall" data-overall={overall ?? ''}>
        <strong>{words.overall(overall, meta.overall.contaminated, meta.overall.exposures)}</strong>
      </p>
      {groups.length === 0 ? (
        <p class="muted">{words.none}</p>
      ) : (
        <InsightChart
          name="contamination"
          data={groups}
          caption={words.figure(by, groups.length, worse)}
          draw={async (holder) => {
            const { drawBars } = await import('./chart-bars');
            return drawBars(
              holder,
              groups.map((group) => ({
                label: group.group.label,
                value: group.rate,
                low: group.ci_low,
                high: group.ci_high,
                marked: isWorse(group, overall),
              })),
              {
                reference: overall,
                format: percent,
                markLabel: words.worse,
                onPick: (i) => props.onChange(drill(groups[i]!)),
              },
            );
          }}
        >
          <FiguresTable
            label={words.table(by)}
            columns={words.columns}
            csv={{
              path: '/api/v1/insights/contamination',
              query: contaminationQuery(filters, filters.by),
              file: `contamination-by-${filters.by}`,
            }}
          >
            {groups.map((group) => (
              <tr
                key={`${group.group.id ?? ''}|${group.group.label}`}
                data-group={group.group.label}
                data-worse={isWorse(group, overall) ? 'true' : 'false'}
              >
                <th scope="row">
                  {group.group.label}
                  {isWorse(group, overall) && (
                    <>
                      {' '}
                      <Chip tone="bad">{words.worseLong}</Chip>
                    </>
                  )}
                </th>
                <td>{percent(group.rate)}</td>
                <td>{group.contaminated}</td>
                <td>{group.exposures}</td>
                <td>{words.range(group.ci_low, group.ci_high)}</td>
                <td>
                  <a
                    href={`/insights${searchOf({ ...filters, ...drill(group) })}`}
                    aria-label={strings.drill.showFor(group.group.label)}
                    aria-current={group === drilled ? 'true' : undefined}
                  >
                    {strings.drill.show}
                  </a>
                </td>
              </tr>
            ))}
          </FiguresTable>
          <p class="muted small">{strings.drill.tapBar}</p>
        </InsightChart>
      )}
      {filters.group !== '' && (
        <Exposures
          filters={filters}
          label={drilled?.group.label ?? filters.group}
          onChange={props.onChange}
        />
      )}
    </>
  );
}

/** The rate week by week, its interval as a band around it. */
function Trend(props: { filters: Filters }) {
  const answer = useContamination(props.filters, 'week');
  const t = strings.trend;
  const weeks = answer?.ok
    ? answer.data.filter((week) => weekStart(week.group.label) !== null)
    : [];
  return (
    <section class="panel insight-part" aria-labelledby="trend-title">
      <h2 id="trend-title">{t.title}</h2>
      <p class="muted">{t.help}</p>
      {answer === null && <p aria-busy="true">{strings.loading}</p>}
      {answer && !answer.ok && <Notice tone="bad">{answer.failure.error}</Notice>}
      {answer?.ok && weeks.length === 0 && <p class="muted">{t.none}</p>}
      {weeks.length > 0 && (
        <InsightChart
          name="trend"
          data={weeks}
          caption={t.figure(weeks.length)}
          draw={async (holder) => {
            const { drawChart } = await import('../sensors/chart-draw');
            return drawChart(
              holder,
              weeks.map((week) => weekStart(week.group.label)!),
              {
                label: t.series,
                unit: '%',
                avg: weeks.map((week) => week.rate * 100),
                min: weeks.map((week) => week.ci_low * 100),
                max: weeks.map((week) => week.ci_high * 100),
              },
              'insights-trend',
              t.legend,
            );
          }}
        >
          <FiguresTable
            label={t.table}
            columns={t.columns}
            csv={{
              path: '/api/v1/insights/contamination',
              query: contaminationQuery(props.filters, 'week'),
              file: 'contamination-by-week',
            }}
          >
            {weeks.map((week) => (
              <tr key={week.group.label} data-week={week.group.label}>
                <th scope="row">{week.group.label}</th>
                <td>{percent(week.rate)}</td>
                <td>{week.contaminated}</td>
                <td>{week.exposures}</td>
                <td>{words.range(week.ci_low, week.ci_high)}</td>
              </tr>
            ))}
          </FiguresTable>
        </InsightChart>
      )}
    </section>
  );
}
