// CI's dependency audit: `npm audit` of the production dependencies (what `npm ci
// --omit=dev` installs on a server). It lists every advisory that applies and fails
// (exit 1) on a high or critical one. A registry that offers no audit endpoint (a
// mirror, a proxy that allows only GET) answers no report: the script says so and
// passes, since no advisory was found rather than one ignored.
//
//   node scripts/audit-production.mjs              runs npm audit --omit=dev
//   node scripts/audit-production.mjs REPORT.json  reads a report npm audit --json wrote
import console from 'node:console';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import process from 'node:process';

/** Severities that fail the build. */
const FAILING = new Set(['high', 'critical']);

function auditOutput() {
  const file = process.argv[2];
  if (file !== undefined) return readFileSync(file, 'utf8');
  const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return run.stdout ?? '';
}

function parse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const report = parse(auditOutput());
if (report === null || typeof report.metadata?.vulnerabilities !== 'object') {
  const why = typeof report?.message === 'string' ? report.message : 'no report';
  console.log(`npm audit: the registry's audit endpoint gave no report (${why}); skipped`);
  process.exit(0);
}

const advisories = Object.values(report.vulnerabilities ?? {});
for (const entry of advisories) {
  const via = (entry.via ?? [])
    .map((v) => (typeof v === 'string' ? `via ${v}` : `${v.title ?? ''} ${v.url ?? ''}`.trim()))
    .join('; ');
  const fix = entry.fixAvailable ? 'fix available' : 'no fix yet';
  console.log(`${entry.severity}: ${entry.name} ${entry.range ?? ''} — ${via} (${fix})`);
}
const counts = report.metadata.vulnerabilities;
const failing = advisories.filter((entry) => FAILING.has(entry.severity));
console.log(
  `npm audit of production dependencies: ${advisories.length} advisory(ies) ` +
    `(critical ${counts.critical ?? 0}, high ${counts.high ?? 0}, moderate ${counts.moderate ?? 0}, ` +
    `low ${counts.low ?? 0}); ${failing.length} fail the build (high or critical)`,
);
process.exit(failing.length > 0 ? 1 : 0);
