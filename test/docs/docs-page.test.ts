import { describe, expect, it } from 'vitest';
import { sqliteTarget } from '../support/harness.js';
import { appSuite } from '../support/suite.js';

describe('docs page headers', () => {
  const { t } = appSuite(sqliteTarget());

  it('sends a same-origin CSP that does not upgrade requests to https', async () => {
    for (const url of ['/docs', '/docs/static/swagger-ui-bundle.js']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).not.toMatch(/upgrade-insecure-requests/);
      expect(csp, url).toMatch(/default-src 'self'/);
      expect(csp, url).toMatch(/script-src 'self'(;|$)/);
      expect(csp, url).toMatch(/object-src 'none'/);
      expect(csp, url).not.toMatch(/https:|unsafe-inline|unsafe-eval/);
    }
  });

  it('titles the page Vitro', async () => {
    const res = await t.request({ method: 'GET', url: '/docs' });
    expect(res.body).toMatch(/<title>Vitro[^<]*<\/title>/);
  });
});
