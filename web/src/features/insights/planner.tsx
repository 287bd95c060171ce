import { useEffect, useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { DateField, NumberField } from '../../forms/fields';
import { RecordPicker, type PickedRecord } from '../../forms/record-picker';
import { useAnswer } from '../../ui/answer';
import { Chip, Fact, Notice } from '../../ui/parts';
import { FiguresTable, InsightChart } from './chart';
import { dateSeconds, forecastQuery, type Filters, type Forecast } from './model';
import { count, strings, times } from './strings';

const words = strings.plan;

/**
 * The planner: a line, a target of plantlets and a date make the plan (vessels to
 * start, by when, week by week with the low–high band, the rates used); a line
 * alone, its current vessels' next 12 weeks. What is asked lives in the address;
 * the plan prints on its own (styles.css, print).
 */
export function Planner(props: { filters: Filters; onPlan: (changes: Partial<Filters>) => void }) {
  const { filters } = props;
  const [line, setLine] = useState<PickedRecord | null>(
    filters.plant ? { type: 'plant', id: filters.plant, label: '…' } : null,
  );
  const [target, setTarget] = useState(filters.target);
  const [date, setDate] = useState(filters.date);
  const [missing, setMissing] = useState<string | null>(null);

  return (
    <section class="panel insight-part planner" aria-labelledby="plan-title">
      <h2 id="plan-title">{words.title}</h2>
      <p class="muted no-print">{words.help}</p>
      <form
        class="planner-form no-print"
        aria-label={words.title}
        onSubmit={(event) => {
          event.preventDefault();
          if (line === null) {
            setMissing(words.pickLine);
            return;
          }
          setMissing(null);
          props.onPlan({ plant: line.id, target, date });
        }}
      >
        <RecordPicker
          name="plant_id"
          label={words.line}
          value={line}
          onChange={setLine}
          error={missing}
          plants
        />
        <NumberField
          name="target_plantlets"
          label={words.target}
          value={target}
          onInput={setTarget}
          error={null}
        />
        <DateField name="by" label={words.by} value={date} onInput={setDate} error={null} />
        <div class="actions">
          <button type="submit" class="button button-primary">
            {words.run}
          </button>
        </div>
      </form>
      {filters.plant !== '' && (
        <PlanAnswer
          filters={filters}
          onLine={(named) => {
            // A line named by the address gets its name from the plan.
            if (line?.id === named.id && line.label === '…') setLine(named);
          }}
        />
      )}
    </section>
  );
}

function PlanAnswer(props: { filters: Filters; onLine: (line: PickedRecord) => void }) {
  const { filters } = props;
  const answer = useAnswer(
    () =>
      call(
        api.GET('/api/v1/insights/forecast', {
          params: { query: forecastQuery(filters) },
        }),
      ),
    [filters.plant, filters.target, filters.date, filters.since, filters.until],
  );
  useEffect(() => {
    if (answer?.ok) props.onLine({ type: 'plant', ...answer.data.plant });
  }, [answer]);
  if (answer === null) return <p aria-busy="true">{strings.loading}</p>;
  if (!answer.ok) return <Notice tone="bad">{answer.failure.error}</Notice>;
  return <Plan forecast={answer.data} query={forecastQuery(filters)} />;
}

function Plan(props: { forecast: Forecast; query: ReturnType<typeof forecastQuery> }) {
  const { forecast } = props;
  const { plan, rates, weeks } = forecast;
  return (
    <article class="plan-sheet" aria-labelledby="plan-line">
      <h3 id="plan-line">
        {forecast.plant.label}
        {plan && ` · ${count(plan.target_plantlets)} ${words.target.toLowerCase()} · ${plan.by}`}
      </h3>
      {plan && (
        <dl class="facts plan-facts">
          <Fact term={words.toStart} class="plan-to-start">
            <strong>{count(plan.vessels_to_start)}</strong>
            {plan.vessels_to_start_low !== plan.vessels_to_start_high && (
              <span class="muted">
                {' '}
                ({words.band(plan.vessels_to_start_low, plan.vessels_to_start_high)})
              </span>
            )}
          </Fact>
          <Fact term={words.needed}>{count(plan.vessels_needed)}</Fact>
          <Fact term={words.startBy} class="plan-start-by">
            {plan.start_by && !plan.late && <time dateTime={plan.start_by}>{plan.start_by}</time>}
            {plan.late && (
              <Chip tone="warn">{plan.start_by === null ? words.cannot : words.late}</Chip>
            )}
          </Fact>
          <Fact term={words.current}>{count(forecast.current_vessels)}</Fact>
        </dl>
      )}
      {!plan && (
        <dl class="facts plan-facts">
          <Fact term={words.current}>{count(forecast.current_vessels)}</Fact>
        </dl>
      )}
      <h4>{words.rates}</h4>
      <dl class="facts plan-rates">
        <Fact term={words.whose}>
          {words.rateUsed(words.source[rates.source] ?? rates.source, rates.handlings)}
        </Fact>
        <Fact term={words.rate4w}>{times(rates.rate_4w)}</Fact>
        <Fact term={words.rateBand}>
          {times(rates.rate_4w_low)} – {times(rates.rate_4w_high)}
        </Fact>
        <Fact term={words.perVessel}>
          {rates.plantlets_per_vessel === null
            ? '–'
            : Number(rates.plantlets_per_vessel.toFixed(2))}
        </Fact>
      </dl>
      <h4>{plan ? words.projection : words.projectionNow}</h4>
      <InsightChart
        name="forecast"
        data={weeks}
        caption={words.figure}
        draw={async (holder) => {
          const { drawChart } = await import('../sensors/chart-draw');
          return drawChart(
            holder,
            weeks.map((week) => dateSeconds(week.date)),
            {
              label: words.series,
              unit: '',
              avg: weeks.map((week) => week.vessels),
              min: weeks.map((week) => week.vessels_low),
              max: weeks.map((week) => week.vessels_high),
            },
            'insights-forecast',
            words.legend,
          );
        }}
      >
        <FiguresTable
          label={words.table}
          columns={words.columns}
          csv={{ path: '/api/v1/insights/forecast', query: props.query, file: 'forecast' }}
        >
          {weeks.map((week) => (
            <tr key={week.week} data-week={week.week}>
              <th scope="row">{week.week}</th>
              <td>
                <time dateTime={week.date}>{week.date}</time>
              </td>
              <td>{count(week.vessels)}</td>
              <td>{count(week.vessels_low)}</td>
              <td>{count(week.vessels_high)}</td>
              <td>{week.plantlets === null ? '–' : count(week.plantlets)}</td>
            </tr>
          ))}
        </FiguresTable>
      </InsightChart>
      <p class="muted small print-only">{words.printed(new Date().toLocaleString())}</p>
      <button type="button" class="button no-print" onClick={() => window.print()}>
        {words.print}
      </button>
    </article>
  );
}
