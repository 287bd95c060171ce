import { api, call } from '../../api/client';
import { useAnswer } from '../../ui/answer';
import { recordHref } from '../../ui/links';
import { Notice } from '../../ui/parts';
import { FiguresTable, InsightChart } from './chart';
import { byGrowth, periodQuery, type Filters } from './model';
import { count, strings, times } from './strings';

/** Each line's multiplication: its 4-week rate as a bar, fastest first, the figures below. */
export function Multiplication(props: { filters: Filters; own: boolean }) {
  const words = strings.multiplication;
  const query = { by: 'plant' as const, ...periodQuery(props.filters) };
  const answer = useAnswer(
    () =>
      call(
        api.GET('/api/v1/insights/multiplication', {
          params: { query },
        }),
      ),
    [props.filters.since, props.filters.until],
  );
  const lines = answer?.ok ? byGrowth(answer.data) : [];
  const charted = lines.filter((line) => line.rate_4w !== null);
  return (
    <section class="panel insight-part" aria-labelledby="multiplication-title">
      <h2 id="multiplication-title">{words.title}</h2>
      <p class="muted">{words.help}</p>
      {answer === null && <p aria-busy="true">{strings.loading}</p>}
      {answer && !answer.ok && <Notice tone="bad">{answer.failure.error}</Notice>}
      {answer?.ok && lines.length === 0 && <p class="muted">{words.none}</p>}
      {lines.length > 0 && (
        <InsightChart
          name="multiplication"
          data={lines}
          caption={words.figure(charted.length)}
          draw={async (holder) => {
            const { drawBars } = await import('./chart-bars');
            return drawBars(
              holder,
              charted.map((line) => ({ label: line.group.label, value: line.rate_4w! })),
              { format: times },
            );
          }}
        >
          <FiguresTable
            label={words.table}
            columns={words.columns}
            csv={{ path: '/api/v1/insights/multiplication', query, file: 'multiplication' }}
          >
            {lines.map((line) => (
              <tr key={line.group.id ?? line.group.label} data-group={line.group.label}>
                <th scope="row">
                  {line.group.id ? (
                    <a href={recordHref.plant(line.group.id)}>{line.group.label}</a>
                  ) : (
                    line.group.label
                  )}
                </th>
                <td>{line.handlings}</td>
                <td>{times(line.rate)}</td>
                <td>
                  {times(line.rate_4w)}{' '}
                  <span class="muted small">{words.rests(line.handlings_4w)}</span>
                </td>
                <td>{Number(line.cycle_days.toFixed(1))}</td>
              </tr>
            ))}
          </FiguresTable>
        </InsightChart>
      )}
    </section>
  );
}

/** The stage funnel: of those that entered each stage, how many moved on and how many ended there. */
export function Stages(props: { filters: Filters }) {
  const words = strings.stages;
  const answer = useAnswer(
    () =>
      call(
        api.GET('/api/v1/insights/stages', {
          params: { query: periodQuery(props.filters) },
        }),
      ),
    [props.filters.since, props.filters.until],
  );
  const stages = answer?.ok ? answer.data : [];
  const entered = stages.reduce((sum, stage) => sum + stage.entered, 0);
  return (
    <section class="panel insight-part" aria-labelledby="stages-title">
      <h2 id="stages-title">{words.title}</h2>
      <p class="muted">{words.help}</p>
      <p class="muted small">{strings.stagesLab}</p>
      {answer === null && <p aria-busy="true">{strings.loading}</p>}
      {answer && !answer.ok && <Notice tone="bad">{answer.failure.error}</Notice>}
      {answer?.ok && entered === 0 && <p class="muted">{words.none}</p>}
      {entered > 0 && (
        <InsightChart
          name="stages"
          data={stages}
          caption={words.figure(stages.length)}
          draw={async (holder) => {
            const { drawBars } = await import('./chart-bars');
            return drawBars(
              holder,
              stages.map((stage) => ({ label: stage.stage.name, value: stage.entered })),
              { format: count },
            );
          }}
        >
          <FiguresTable
            label={words.table}
            columns={words.columns}
            csv={{
              path: '/api/v1/insights/stages',
              query: periodQuery(props.filters),
              file: 'stages',
            }}
          >
            {stages.map((stage) => (
              <tr key={stage.stage.key} data-stage={stage.stage.key}>
                <th scope="row">{stage.stage.name}</th>
                <td>{stage.entered}</td>
                <td>{stage.moved_on}</td>
                <td>{stage.still_there}</td>
                <td>{stage.discarded}</td>
                <td>{stage.contaminated_discarded}</td>
                <td>{stage.lost}</td>
                <td>{stage.retired}</td>
                <td>{stage.median_days === null ? '–' : Number(stage.median_days.toFixed(1))}</td>
              </tr>
            ))}
          </FiguresTable>
        </InsightChart>
      )}
    </section>
  );
}
