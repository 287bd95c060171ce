import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { CsvLink } from '../../ui/download';
import type { DrawnChart } from '../sensors/chart-draw';

/**
 * A chart of the screen: drawn by `draw` (which loads uPlot with import(), so the
 * screen's first answer shows before the chart's code has come), redrawn when
 * `data` changes, resized with its holder. The canvas is hidden from screen
 * readers: the caption says what it shows and the table under it holds the figures.
 */
export function InsightChart(props: {
  name: string;
  data: unknown;
  draw: (holder: HTMLElement) => Promise<DrawnChart>;
  caption: ComponentChildren;
  children: ComponentChildren;
}) {
  const holder = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    const target = holder.current;
    if (!target) return;
    setDrawn(false);
    let live = true;
    let chart: DrawnChart | null = null;
    const observer = new ResizeObserver(() => chart?.resize(target.clientWidth));
    void props.draw(target).then((made) => {
      if (!live) {
        made.destroy();
        return;
      }
      chart = made;
      observer.observe(target);
      setDrawn(true);
    });
    return () => {
      live = false;
      observer.disconnect();
      chart?.destroy();
      target.replaceChildren();
    };
  }, [props.data]);
  return (
    <figure
      class="chart insight-chart"
      data-chart={props.name}
      data-drawn={drawn ? 'true' : 'false'}
    >
      <figcaption class="muted small">{props.caption}</figcaption>
      <div class="chart-canvas" aria-hidden="true" ref={holder} />
      {props.children}
    </figure>
  );
}

/** The operation a figures table shows, and its query: the same figures as CSV. */
export interface FiguresCsv {
  readonly path: string;
  readonly query: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly file: string;
}

/**
 * A table of a chart's figures: scrolls sideways on a phone, reachable by keyboard;
 * under it, "Download CSV" of the same figures from the API.
 */
export function FiguresTable(props: {
  label: string;
  columns: readonly string[];
  csv: FiguresCsv;
  children: ComponentChildren;
}) {
  return (
    <>
      <div class="table-scroll insight-table" tabIndex={0} role="region" aria-label={props.label}>
        <table>
          <caption class="visually-hidden">{props.label}</caption>
          <thead>
            <tr>
              {props.columns.map((column, i) => (
                <th scope="col" key={i}>
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{props.children}</tbody>
        </table>
      </div>
      <p class="insight-csv no-print">
        <CsvLink {...props.csv} about={props.label} />
      </p>
    </>
  );
}
