import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { cssColour, type DrawnChart } from '../sensors/chart-draw';

/*
 * Loaded with import() by the Insights screen's charts only, with uPlot (which the
 * readings charts' chunk shares).
 */

/** One bar: its label, its value, and optionally its interval; `marked` bars are drawn red. */
export interface Bar {
  readonly label: string;
  readonly value: number;
  readonly low?: number;
  readonly high?: number;
  readonly marked?: boolean;
}

const ROW = 36;
const AXIS = 40;
const LONGEST = 18;

const short = (label: string) =>
  label.length > LONGEST ? `${label.slice(0, LONGEST - 1)}…` : label;

/**
 * Horizontal bars, the first at the top, labels at their left: a bar per group
 * whatever the screen's width. A bar's interval is a line across it with end
 * caps; `reference` (the overall rate) a dashed line from top to bottom.
 */
export function drawBars(
  target: HTMLElement,
  bars: readonly Bar[],
  options: {
    reference?: number | null;
    format: (value: number) => string;
    /** Written after a marked bar, so its colour is not the only sign. */
    markLabel?: string;
    /** A bar tapped or clicked (the table beside the chart offers the same by keyboard). */
    onPick?: (index: number) => void;
  },
): DrawnChart {
  const accent = cssColour('--accent', '#0b6e4f');
  const bad = cssColour('--bad', '#b3261e');
  const text = cssColour('--text', '#1b1f24');
  const grid = cssColour('--border', '#d4d7dc');
  const height = bars.length * ROW + AXIS;
  const labels = bars.map((bar) => short(bar.label));
  const top = Math.max(
    ...bars.map((bar) => Math.max(bar.value, bar.high ?? 0)),
    options.reference ?? 0,
  );
  const labelWidth = Math.min(150, Math.max(48, ...labels.map((label) => label.length * 7.5 + 16)));
  const marked = Boolean(options.markLabel) && bars.some((b) => b.marked);
  // Room at the right of the longest bar: for the word after a marked one (about 64 px
  // of the plot's width, so more of a phone's), else a little.
  const maxFor = (width: number) => {
    const plot = Math.max(120, width - labelWidth - 24);
    const room = marked ? 1 / Math.max(0.5, 1 - 64 / plot) : 1.08;
    return top > 0 ? top * room : 1;
  };
  const bar = (fill: string, stroke: string): uPlot.Series => ({
    fill,
    stroke,
    width: 1,
    points: { show: false },
    paths: uPlot.paths.bars!({ size: [0.6, 28] }),
  });
  const dpr = () => uPlot.pxRatio;
  const drawMarks = (u: uPlot) => {
    const ctx = u.ctx;
    ctx.save();
    ctx.lineWidth = 2 * dpr();
    ctx.strokeStyle = text;
    const cap = 6 * dpr();
    bars.forEach((b, i) => {
      if (b.low === undefined || b.high === undefined) return;
      const y = u.valToPos(i, 'x', true);
      const x0 = u.valToPos(b.low, 'y', true);
      const x1 = u.valToPos(b.high, 'y', true);
      ctx.beginPath();
      ctx.moveTo(x0, y);
      ctx.lineTo(x1, y);
      ctx.moveTo(x0, y - cap);
      ctx.lineTo(x0, y + cap);
      ctx.moveTo(x1, y - cap);
      ctx.lineTo(x1, y + cap);
      ctx.stroke();
    });
    if (options.reference !== undefined && options.reference !== null) {
      const x = u.valToPos(options.reference, 'y', true);
      ctx.setLineDash([6 * dpr(), 4 * dpr()]);
      ctx.beginPath();
      ctx.moveTo(x, u.bbox.top);
      ctx.lineTo(x, u.bbox.top + u.bbox.height);
      ctx.stroke();
    }
    if (options.markLabel) {
      const word = options.markLabel;
      ctx.setLineDash([]);
      ctx.fillStyle = bad;
      ctx.font = `bold ${12 * dpr()}px system-ui, sans-serif`;
      ctx.textBaseline = 'middle';
      ctx.textAlign = 'left';
      const width = ctx.measureText(word).width;
      const right = u.bbox.left + u.bbox.width;
      bars.forEach((b, i) => {
        if (!b.marked) return;
        // After the bar and its interval; within the plot when there is no room.
        const end = u.valToPos(Math.max(b.value, b.high ?? 0), 'y', true);
        ctx.fillText(word, Math.min(end + 6 * dpr(), right - width), u.valToPos(i, 'x', true));
      });
    }
    ctx.restore();
  };
  const chartOptions: uPlot.Options = {
    width: Math.max(240, target.clientWidth),
    height,
    legend: { show: false },
    cursor: { show: false },
    scales: {
      x: { time: false, ori: 1, dir: -1, range: [-0.5, bars.length - 0.5] },
      y: { ori: 0, dir: 1, range: (u) => [0, maxFor(u.width)] },
    },
    axes: [
      {
        scale: 'x',
        side: 3,
        size: labelWidth,
        stroke: text,
        grid: { show: false },
        ticks: { show: false },
        splits: () => bars.map((_, i) => i),
        values: (_u, splits) => splits.map((i) => labels[i] ?? ''),
      },
      {
        scale: 'y',
        side: 2,
        // Room for "100 %" between ticks, on a phone too.
        space: 56,
        stroke: text,
        grid: { stroke: grid, width: 1 },
        ticks: { stroke: grid },
        values: (_u, splits) => splits.map((v) => options.format(v)),
      },
    ],
    series: [{}, bar(`${accent}aa`, accent), bar(`${bad}cc`, bad)],
    hooks: { draw: [drawMarks] },
  };
  const data: uPlot.AlignedData = [
    bars.map((_, i) => i),
    bars.map((b) => (b.marked ? null : b.value)),
    bars.map((b) => (b.marked ? b.value : null)),
  ];
  const chart = new uPlot(chartOptions, data, target);
  const pick = options.onPick;
  if (pick) {
    chart.over.style.cursor = 'pointer';
    chart.over.addEventListener('click', (event) => {
      const i = Math.round(chart.posToVal(event.offsetY, 'x'));
      if (i >= 0 && i < bars.length) pick(i);
    });
  }
  return {
    destroy: () => chart.destroy(),
    resize: (width) => {
      chart.setSize({ width: Math.max(240, width), height });
      chart.setScale('y', { min: 0, max: maxFor(chart.width) });
    },
  };
}
