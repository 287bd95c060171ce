import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/node-script.js';

/** Runs CI's audit script on a report, as `npm audit --omit=dev --json` would print it. */
function audit(report: unknown): { code: number | null; out: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'vitro-audit-')), 'report.json');
  writeFileSync(file, typeof report === 'string' ? report : JSON.stringify(report));
  const run = spawnSync('node', [join(REPO_ROOT, 'scripts', 'audit-production.mjs'), file], {
    encoding: 'utf8',
  });
  return { code: run.status, out: run.stdout };
}

const reportOf = (vulnerabilities: Record<string, unknown>, counts: Record<string, number>) => ({
  auditReportVersion: 2,
  vulnerabilities,
  metadata: {
    vulnerabilities: { info: 0, low: 0, moderate: 0, high: 0, critical: 0, ...counts },
  },
});

describe('CI dependency audit (scripts/audit-production.mjs)', () => {
  it('passes, saying so, when the registry has no audit endpoint', () => {
    const unreachable = {
      message: '405 Method Not Allowed - POST /-/npm/v1/security/advisories/bulk',
      statusCode: 405,
    };
    for (const report of [unreachable, '', 'not json']) {
      const run = audit(report);
      expect(run.code).toBe(0);
      expect(run.out).toMatch(/audit endpoint gave no report .*; skipped/);
    }
  });

  it('passes on a clean report and on moderate or low advisories, listing them', () => {
    expect(audit(reportOf({}, {})).code).toBe(0);
    const run = audit(
      reportOf(
        {
          uuid: {
            name: 'uuid',
            severity: 'moderate',
            range: '<11.1.1',
            via: [{ title: 'Missing buffer bounds check', url: 'https://example.org/GHSA-x' }],
            fixAvailable: true,
          },
        },
        { moderate: 1 },
      ),
    );
    expect(run.code).toBe(0);
    expect(run.out).toContain('moderate: uuid <11.1.1 — Missing buffer bounds check');
    expect(run.out).toContain('0 fail the build');
  });

  it('fails on a high or critical advisory of a production dependency', () => {
    for (const severity of ['high', 'critical']) {
      const run = audit(
        reportOf(
          {
            tar: {
              name: 'tar',
              severity,
              range: '<7.5.3',
              via: [{ title: 'Arbitrary file overwrite', url: 'https://example.org/GHSA-y' }],
              fixAvailable: false,
            },
          },
          { [severity]: 1 },
        ),
      );
      expect(run.code, severity).toBe(1);
      expect(run.out).toContain(`${severity}: tar <7.5.3 — Arbitrary file overwrite`);
      expect(run.out).toContain('1 fail the build');
    }
  });
});
