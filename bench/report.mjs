// Medians over rounds, the printed table and the JSON summary.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function summarise(rounds) {
  return {
    rps: median(rounds.map((r) => r.rps)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    cpuMs: rounds.some((r) => r.cpuMs === null) ? null : median(rounds.map((r) => r.cpuMs)),
    rounds,
  };
}

/** One case's result: medians of both servers and the ratio of their median throughputs. */
export function caseResult(benchCase, rounds) {
  const baseline = summarise(rounds.baseline);
  const vitro = summarise(rounds.vitro);
  const ratio = vitro.rps / baseline.rps;
  const cpuRatio =
    vitro.cpuMs === null || baseline.cpuMs === null ? null : baseline.cpuMs / vitro.cpuMs;
  return {
    name: benchCase.name,
    label: benchCase.label,
    goal: benchCase.goal,
    ratio: Math.round(ratio * 1000) / 1000,
    cpuRatio: cpuRatio === null ? null : Math.round(cpuRatio * 1000) / 1000,
    meetsGoal: ratio >= benchCase.goal,
    ...(benchCase.itemsPerRequest === undefined
      ? {}
      : { itemsPerRequest: benchCase.itemsPerRequest }),
    baseline,
    vitro,
  };
}

const HEADERS = [
  'case',
  'baseline req/s',
  'p50',
  'p99',
  'vitro req/s',
  'p50',
  'p99',
  'ratio',
  'goal',
  'cpu ratio',
];
const RIGHT_ALIGNED = new Set([1, 2, 3, 4, 5, 6, 7, 9]);

const rate = (value) => Math.round(value).toLocaleString('en-US');
export const ms = (value) => (value === null ? '-' : `${value.toFixed(2)} ms`);

export function formatTable(title, results) {
  const rows = results.map((r) => [
    r.label,
    rate(r.baseline.rps),
    ms(r.baseline.p50),
    ms(r.baseline.p99),
    rate(r.vitro.rps),
    ms(r.vitro.p50),
    ms(r.vitro.p99),
    r.ratio.toFixed(2),
    `≥ ${r.goal} ${r.meetsGoal ? 'ok' : 'MISSED'}`,
    r.cpuRatio === null ? '-' : r.cpuRatio.toFixed(2),
  ]);
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    cells
      .map((cell, i) => (RIGHT_ALIGNED.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [title, line(HEADERS), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join(
    '\n',
  );
}

/** Lines for what some cases measure beyond the ratio: items per second, p99 at half capacity. */
export function formatExtras(results) {
  const lines = [];
  for (const r of results) {
    const items = r.itemsPerRequest;
    if (items !== undefined) {
      lines.push(
        `${r.name}: ${rate(r.baseline.rps * items)} items/s baseline, ` +
          `${rate(r.vitro.rps * items)} items/s vitro (${items} per request)`,
      );
    }
    if (r.halfCapacity !== undefined) {
      const h = r.halfCapacity;
      lines.push(
        `${r.name}: at half capacity (${rate(h.rate)} req/s) vitro p50 ${ms(h.p50)}, p99 ${ms(h.p99)} ` +
          `(goal < ${h.goalP99} ms ${h.p99 !== null && h.p99 < h.goalP99 ? 'ok' : 'MISSED'})`,
      );
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

export function writeSummary(path, summary) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(summary, null, 2)}\n`);
}
