import { useLocation } from 'preact-iso';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, call, type Answer, type Schemas } from '../../api/client';
import { OutOfRange } from './out-of-range';
import { implausible, plausibleRange } from './plausible';
import { sensorWords, strings } from './strings';
import { useAnswer } from '../../ui/answer';
import {
  BUCKET_MS,
  bucketFor,
  describe,
  presetRange,
  PRESETS,
  toSeries,
  type ChartSeries,
  type Preset,
  type Range,
} from './chart-data';
import { usePagedList } from '../../ui/paged';
import { Notice } from '../../ui/parts';
import { LoadMore } from '../../ui/list';

type Bucket = Schemas['SensorReadingSummaryBucket'];
type Reading = Schemas['SensorReading'];

const DAY = 86_400_000;

/** `2026-11-27` in the browser's time zone, as a date input shows it. */
function dateInput(at: Date): string {
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 10);
}

/** The range the address asks for: `?range=7d`, or `?from=…&to=…` (local dates, both days whole). */
function rangeOf(query: Record<string, string>, now: Date): Range {
  const { from, to } = query;
  if (from && to) {
    const since = new Date(`${from}T00:00:00`);
    const until = new Date(new Date(`${to}T00:00:00`).getTime() + DAY - 1);
    if (!Number.isNaN(since.getTime()) && !Number.isNaN(until.getTime()) && since <= until) {
      const end = until > now ? now : until;
      return { since, until: end, bucket: bucketFor(end.getTime() - since.getTime()) };
    }
  }
  const preset = (query.range ?? '24h') as Preset;
  return presetRange(preset in PRESETS ? preset : '24h', now);
}

/** Where the console's chart timing starts: a range tapped, or the panel opened. */
const START = 'vitro-chart-start';

/**
 * A device's or a room's readings: a chart per sensor type drawn from the
 * summary operation (buckets chosen by the range, never raw rows), its values
 * in a table for whoever cannot see the canvas, and the raw readings of the
 * range below, a page at a time. The range lives in the address.
 */
export function SensorReadings(props: {
  device_id?: string;
  room_id?: string;
  deviceNames?: Map<string, string>;
}) {
  const { path, query, route } = useLocation();
  const [now, setNow] = useState(() => new Date());
  const range = useMemo(() => rangeOf(query, now), [query.range, query.from, query.to, now]);
  const preset = query.from && query.to ? null : ((query.range ?? '24h') as Preset);
  const [picking, setPicking] = useState(Boolean(query.from && query.to));
  const [from, setFrom] = useState(query.from ?? dateInput(new Date(now.getTime() - 7 * DAY)));
  const [to, setTo] = useState(query.to ?? dateInput(now));
  const [pickError, setPickError] = useState<string | null>(null);
  const scope = {
    ...(props.device_id ? { device_id: props.device_id } : {}),
    ...(props.room_id ? { room_id: props.room_id } : {}),
  };

  useEffect(() => {
    performance.mark(START);
  }, []);

  const go = (search: string) => {
    performance.mark(START);
    setNow(new Date());
    route(`${path}?${search}`);
  };

  const summary = useAnswer<Bucket[]>(
    () =>
      call(
        api.GET('/api/v1/sensor-readings/summary', {
          params: {
            query: {
              ...scope,
              bucket: range.bucket,
              since: range.since.toISOString(),
              until: range.until.toISOString(),
            },
          },
        }),
      ),
    [props.device_id, props.room_id, range],
  );

  return (
    <section class="panel sensor-readings" aria-labelledby="readings-title">
      <h2 id="readings-title">{strings.readings.title}</h2>
      <div class="range-picker" role="group" aria-label={strings.readings.ranges}>
        {(Object.keys(PRESETS) as Preset[]).map((key) => (
          <button
            type="button"
            key={key}
            class={preset === key ? 'button button-primary' : 'button'}
            aria-pressed={preset === key}
            onClick={() => {
              setPicking(false);
              go(`range=${key}`);
            }}
          >
            {strings.readings.presets[key]}
          </button>
        ))}
        <button
          type="button"
          class={preset === null ? 'button button-primary' : 'button'}
          aria-pressed={preset === null}
          aria-expanded={picking}
          onClick={() => setPicking(!picking)}
        >
          {strings.readings.pick}
        </button>
      </div>
      {picking && (
        <form
          class="range-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (from === '' || to === '' || to < from) {
              setPickError(strings.readings.badRange);
              return;
            }
            setPickError(null);
            go(`from=${from}&to=${to}`);
          }}
        >
          <RangeDate name="from" value={from} max={dateInput(now)} onInput={setFrom} />
          <RangeDate name="to" value={to} max={dateInput(now)} onInput={setTo} />
          <button type="submit" class="button button-primary">
            {strings.readings.show}
          </button>
          {pickError && (
            <p class="form-error" role="alert">
              {pickError}
            </p>
          )}
        </form>
      )}
      <p class="muted small">
        {range.since.toLocaleString()} – {range.until.toLocaleString()} ·{' '}
        {strings.readings.bucket(strings.readings.bucketWords[range.bucket] ?? range.bucket)}
      </p>
      <Charts answer={summary} range={range} />
      <RawReadings scope={scope} range={range} deviceNames={props.deviceNames} />
    </section>
  );
}

/** A table's column headings. */
function ColumnHeads(props: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {props.columns.map((column) => (
          <th scope="col" key={column}>
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** One end of a picked range: a day, no later than today. */
function RangeDate(props: {
  name: 'from' | 'to';
  value: string;
  max: string;
  onInput: (value: string) => void;
}) {
  return (
    <label class="field">
      <span>{strings.readings[props.name]}</span>
      <input
        type="date"
        name={props.name}
        value={props.value}
        max={props.max}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
    </label>
  );
}

function Charts(props: { answer: Answer<Bucket[]> | null; range: Range }) {
  const { answer, range } = props;
  const shaped = useMemo(
    () => (answer?.ok ? toSeries(answer.data, range, sensorWords) : null),
    [answer, range],
  );
  const holders = useRef<(HTMLDivElement | null)[]>([]);
  const [drawn, setDrawn] = useState(false);

  useEffect(() => {
    setDrawn(false);
    if (shaped === null || shaped.series.length === 0) return;
    let live = true;
    const charts: { destroy: () => void; resize: (width: number) => void }[] = [];
    const observer = new ResizeObserver(() => {
      charts.forEach((chart, i) => chart.resize(holders.current[i]?.clientWidth ?? 0));
    });
    void import('./chart-draw').then(({ drawChart }) => {
      if (!live) return;
      const sync = `readings-${Math.random().toString(36).slice(2)}`;
      shaped.series.forEach((series, i) => {
        const holder = holders.current[i];
        if (!holder) return;
        holder.replaceChildren();
        charts.push(drawChart(holder, shaped.x, series, sync));
        observer.observe(holder);
      });
      performance.mark('vitro-chart-drawn');
      if (performance.getEntriesByName(START, 'mark').length > 0) {
        performance.measure('vitro-chart', START, 'vitro-chart-drawn');
      }
      setDrawn(true);
    });
    return () => {
      live = false;
      observer.disconnect();
      charts.forEach((chart) => chart.destroy());
    };
  }, [shaped]);

  if (answer === null)
    return (
      <p class="muted" aria-busy="true">
        {strings.readings.loading}
      </p>
    );
  if (!answer.ok) return <Notice tone="bad">{answer.failure.error}</Notice>;
  if (shaped === null || shaped.series.length === 0)
    return <p class="muted">{strings.readings.none}</p>;
  return (
    <div class="charts" data-drawn={drawn ? 'true' : 'false'} data-bucket={range.bucket}>
      <p class="muted small">{strings.readings.chartHelp}</p>
      {shaped.series.map((series, i) => {
        const { count, low, high, latest } = describe(series);
        return (
          <figure
            class="chart"
            key={`${series.type}-${series.unit}`}
            data-type={series.type}
            data-unit={series.unit}
          >
            <figcaption>
              <strong>{series.label}</strong>{' '}
              <span class="muted small">
                {strings.readings.caption(series, count, low ?? 0, high ?? 0)}
                {latest ? strings.readings.latest(latest.last, series.unit, latest.last_at) : ''}
              </span>
              <SomeOutOfRange series={series} />
            </figcaption>
            <div
              class="chart-canvas"
              aria-hidden="true"
              ref={(el) => {
                holders.current[i] = el;
              }}
            />
            <ValuesTable series={series} bucketMs={BUCKET_MS[range.bucket]} />
          </figure>
        );
      })}
    </div>
  );
}

/** Said under a chart whose readings hold values no sensor of its type can report. */
function SomeOutOfRange(props: { series: ChartSeries }) {
  const { series } = props;
  const range = plausibleRange(series.type, series.unit);
  if (range === null || !series.buckets.some((bucket) => bucket.out_of_range)) return null;
  return (
    <span class="chart-out-of-range">
      <span aria-hidden="true">▲ </span>
      {strings.readings.someOutOfRange(
        series.label.toLowerCase(),
        range.min,
        range.max,
        range.unit,
      )}
    </span>
  );
}

/** The chart's numbers as a table: built only when opened (720 rows cost time a chart need not wait for). */
function ValuesTable(props: { series: ChartSeries; bucketMs: number }) {
  const [open, setOpen] = useState(false);
  const { series } = props;
  return (
    <details class="values-table" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{strings.readings.table(series.label)}</summary>
      {open && (
        <div
          class="table-scroll"
          tabIndex={0}
          role="region"
          aria-label={strings.readings.table(series.label)}
        >
          <table>
            <caption class="visually-hidden">{strings.readings.table(series.label)}</caption>
            <ColumnHeads columns={strings.readings.columns} />
            <tbody>
              {series.buckets.map((bucket) => (
                <tr
                  key={bucket.start}
                  data-start={bucket.start}
                  class={bucket.out_of_range ? 'row-out-of-range' : undefined}
                >
                  <th scope="row">
                    <time dateTime={bucket.start}>{new Date(bucket.start).toLocaleString()}</time>
                    {bucket.out_of_range && (
                      <>
                        {' '}
                        <OutOfRange type={series.type} unit={series.unit} />
                      </>
                    )}
                  </th>
                  <td>{bucket.count}</td>
                  <td>{bucket.min}</td>
                  <td>{bucket.avg}</td>
                  <td>{bucket.max}</td>
                  <td>{bucket.last}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}

function RawReadings(props: {
  scope: { device_id?: string; room_id?: string };
  range: Range;
  deviceNames?: Map<string, string>;
}) {
  const { scope, range } = props;
  const list = usePagedList<Reading>(
    (cursor) =>
      call(
        api.GET('/api/v1/sensor-readings', {
          params: {
            query: {
              ...scope,
              since: range.since.toISOString(),
              until: range.until.toISOString(),
              limit: 50,
              ...(cursor ? { cursor } : {}),
            },
          },
        }),
      ),
    [scope.device_id, scope.room_id, range],
  );
  return (
    <section class="raw-readings" aria-labelledby="raw-title">
      <h3 id="raw-title">{strings.readings.raw}</h3>
      <p class="muted small">{strings.readings.rawLead}</p>
      {list.failure && <Notice tone="bad">{list.failure.error}</Notice>}
      {!list.loading && list.items.length === 0 && !list.failure && (
        <p class="muted">{strings.readings.rawEmpty}</p>
      )}
      {list.items.length > 0 && (
        <div class="table-scroll" tabIndex={0} role="region" aria-label={strings.readings.raw}>
          <table class="raw-table" aria-busy={list.loading}>
            <ColumnHeads columns={strings.readings.rawColumns} />
            <tbody>
              {list.items.map((reading) => (
                <tr key={reading.id}>
                  <td>
                    <time dateTime={reading.recorded_at}>
                      {new Date(reading.recorded_at).toLocaleString()}
                    </time>
                  </td>
                  <td>{sensorWords(reading.type)}</td>
                  <td>
                    {reading.value} {reading.unit}
                    {implausible(reading.type, reading.unit, reading.value) && (
                      <>
                        {' '}
                        <OutOfRange type={reading.type} unit={reading.unit} />
                      </>
                    )}
                  </td>
                  <td>
                    {props.deviceNames?.get(reading.device_id) ?? strings.readings.unknownDevice}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LoadMore list={list} label={strings.readings.more} />
    </section>
  );
}
