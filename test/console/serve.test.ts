import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLE_PAGES } from '../../src/console/pages.js';
import { consoleCsp } from '../../src/console/serve.js';
import { body, testConfig, sqliteTarget } from '../support/harness.js';
import { REPO_ROOT } from '../support/node-script.js';
import { consolePaths } from '../../scripts/console-pages.js';
import { appSuite } from '../support/suite.js';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('the console, served by the API process', () => {
  const { t } = appSuite(sqliteTarget());

  it('answers a browser at / with the console, a JSON client as before', async () => {
    const page = await t.request({ method: 'GET', url: '/', headers: HTML });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<div id="app"></div>');
    expect(page.body).toMatch(
      /<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js">/,
    );
    expect(page.headers.vary).toBe('Accept');
    for (const accept of [undefined, 'application/json', '*/*']) {
      const json = await t.request({
        method: 'GET',
        url: '/',
        headers: accept === undefined ? {} : { accept },
      });
      expect(body(json)).toEqual({
        ok: true,
        data: {
          name: 'Vitro lab API',
          docs: '/docs',
          openapi: '/api/v1/openapi.json',
          api: '/api/v1',
        },
      });
    }
  });

  it('serves every record and list address to browsers, with its query, and 404 to JSON clients', async () => {
    for (const path of CONSOLE_PAGES) {
      const url = `${path.replace(':id', '01a2199b-4c64-703a-999d-8ad8e2392f8a')}?stage=initiation&room=a`;
      const page = await t.request({ method: 'GET', url, headers: HTML });
      expect(page.statusCode, url).toBe(200);
      expect(page.body).toContain('<div id="app"></div>');
      const json = await t.request({ method: 'GET', url, headers: { accept: 'application/json' } });
      expect(json.statusCode, url).toBe(404);
      expect(body(json)).toEqual({
        ok: false,
        data: null,
        error: `No route GET ${url.split('?')[0]}`,
        code: 'NOT_FOUND',
      });
    }
  });

  it("answers a browser at a mistyped address with the console (404), which shows its not-found page; JSON clients keep the API's 404", async () => {
    for (const url of ['/Explants', '/explant/x', '/nothing-here?x=1', '/plants/a/b']) {
      const page = await t.request({ method: 'GET', url, headers: HTML });
      expect(page.statusCode, url).toBe(404);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toBe(consoleCsp(t.config));
      expect(page.body).toContain('<div id="app"></div>');
      for (const accept of [undefined, 'application/json', '*/*']) {
        const json = await t.request({
          method: 'GET',
          url,
          headers: accept === undefined ? {} : { accept },
        });
        expect(json.statusCode, url).toBe(404);
        expect(body(json)).toEqual({
          ok: false,
          data: null,
          error: `No route GET ${url.split('?')[0]}`,
          code: 'NOT_FOUND',
        });
      }
    }
    // The API, its files and docs are never the console's, even to a browser; nor another method.
    for (const url of ['/api/v1/nope', '/api', '/assets/nope.js', '/docs/nope']) {
      const res = await t.request({ method: 'GET', url, headers: HTML });
      expect(res.statusCode, url).toBe(404);
      expect(body(res).code, url).toBe('NOT_FOUND');
    }
    const posted = await t.request({ method: 'POST', url: '/Explants', headers: HTML });
    expect(posted.statusCode).toBe(404);
    expect(body(posted).code).toBe('NOT_FOUND');
  });

  it('sends a Content-Security-Policy without inline scripts, and refuses framing', async () => {
    const page = await t.request({ method: 'GET', url: '/members', headers: HTML });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toBe(consoleCsp(t.config));
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-cache');
    // The page itself holds no inline script or style, and loads nothing from elsewhere.
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.body).not.toMatch(/<style|style="/);
    expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(consoleCsp(testConfig({ STORAGE_URL: 's3://photos?region=eu-west-1' }))).toContain(
      "img-src 'self' data: blob: https:",
    );
  });

  it('serves every asset of the build from the process, cached for good, and nothing from elsewhere', async () => {
    const assets = readdirSync(join(REPO_ROOT, 'dist', 'web', 'assets'));
    expect(assets.some((file) => file.endsWith('.js'))).toBe(true);
    expect(assets.some((file) => file.endsWith('.css'))).toBe(true);
    for (const file of assets) {
      const res = await t.request({ method: 'GET', url: `/assets/${file}` });
      expect(res.statusCode, file).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.body).not.toMatch(
        /https?:\/\/(?!www\.w3\.org)[a-z0-9.-]+\.[a-z]{2,}\/[\w./-]*\.(js|css|woff2?)/,
      );
    }
    const missing = await t.request({ method: 'GET', url: '/assets/nope.js' });
    expect(missing.statusCode).toBe(404);
    expect(body(missing).code).toBe('NOT_FOUND');
    expect((await t.request({ method: 'GET', url: '/favicon.svg' })).statusCode).toBe(200);
  });

  it("answers exactly the addresses of the console's screens: each has a screen, each screen is answered", async () => {
    const screens = await consolePaths();
    const served: readonly string[] = CONSOLE_PAGES;
    for (const path of served) expect(screens, `${path} has no screen`).toContain(path);
    for (const path of screens)
      expect(
        served,
        `${path} is not answered: npm run build:web writes src/console/pages.ts`,
      ).toContain(path);
  });
});
