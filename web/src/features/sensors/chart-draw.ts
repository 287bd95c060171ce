import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartSeries } from './chart-data';
import { strings } from './strings';

/*
 * The one file that imports uPlot (about 50 KB): loaded with import() by the
 * readings chart only, so uPlot lands in that chart's chunk and never in the
 * console's first download.
 */

const HEIGHT = 220;

/** A colour of the console's palette (styles.css), as the canvas needs it. */
export function cssColour(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value === '' ? fallback : value;
}

/** The buckets with no neighbour on either side: a line cannot show them, so they are drawn as dots. */
function isolated(values: readonly (number | null)[]): number[] {
  const found: number[] = [];
  values.forEach((value, i) => {
    if (value !== null && (values[i - 1] ?? null) === null && (values[i + 1] ?? null) === null) {
      found.push(i);
    }
  });
  return found;
}

function formatValue(value: number | null | undefined, unit: string): string {
  if (value === null || value === undefined) return '–';
  return `${Number(value.toFixed(2))} ${unit}`;
}

/** What a line with its band needs: its name, unit, and the line's, low and high values. */
export type BandSeries = Pick<ChartSeries, 'label' | 'unit' | 'avg' | 'min' | 'max'>;

/** A drawn chart: resized with its holder, destroyed with its part. */
export interface DrawnChart {
  destroy: () => void;
  resize: (width: number) => void;
}

/**
 * One chart for one series (a sensor type and its unit): the mean of each bucket
 * as a line, its min–max as a band around it; a bucket without readings is a
 * null, which uPlot leaves as a gap. Charts of one panel share a cursor (`sync`).
 * Other time series with a band (a rate and its interval, a projection and its
 * low–high) are drawn the same, with their own `legend` words.
 */
export function drawChart(
  target: HTMLElement,
  x: readonly number[],
  series: BandSeries,
  sync: string,
  legend: { time: string; min: string; max: string } = strings.readings.legend,
): DrawnChart {
  const accent = cssColour('--accent', '#0b6e4f');
  const text = cssColour('--text', '#1b1f24');
  const grid = cssColour('--border', '#d4d7dc');
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
  const edge = (label: string): uPlot.Series => ({
    label,
    stroke: 'transparent',
    width: 0,
    points: { show: false },
    value: (_u, v) => formatValue(v, series.unit),
  });
  const options: uPlot.Options = {
    width: Math.max(240, target.clientWidth),
    height: HEIGHT,
    cursor: { sync: { key: sync }, points: { size: 8 } },
    legend: { live: true },
    scales: { x: { time: true } },
    axes: [axis, { ...axis, size: 56 }],
    series: [
      {
        label: legend.time,
        value: (_u, v) => (v === null ? '–' : new Date(v * 1000).toLocaleString()),
      },
      {
        label: series.label,
        stroke: accent,
        width: 2,
        spanGaps: false,
        points: { show: true, size: 6, fill: accent, filter: isolated(series.avg) },
        value: (_u, v) => formatValue(v, series.unit),
      },
      edge(legend.min),
      edge(legend.max),
    ],
    bands: [{ series: [3, 2], fill: `${accent}33` }],
  };
  const data: uPlot.AlignedData = [
    Float64Array.from(x),
    series.avg.slice(),
    series.min.slice(),
    series.max.slice(),
  ];
  const chart = new uPlot(options, data, target);
  return {
    destroy: () => chart.destroy(),
    resize: (width) => chart.setSize({ width: Math.max(240, width), height: HEIGHT }),
  };
}
