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

  it('serves the installable console: its manifest, icons and a service worker never cached, which keeps every file of the build and leaves the API alone', async () => {
    const manifest = await t.request({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toBe('application/manifest+json');
    const app = body<{ start_url: string; display: string; icons: { src: string }[] }>(manifest);
    expect(app).toMatchObject({ start_url: '/', display: 'standalone' });
    for (const icon of app.icons) {
      const png = await t.request({ method: 'GET', url: icon.src });
      expect(png.statusCode, icon.src).toBe(200);
      expect(png.headers['content-type']).toBe('image/png');
      expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    }
    const page = await t.request({ method: 'GET', url: '/', headers: HTML });
    expect(page.body).toContain('<link rel="manifest" href="/manifest.webmanifest">');

    const worker = await t.request({ method: 'GET', url: '/sw.js' });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(worker.headers['cache-control']).toBe('no-cache, no-store');
    // It keeps the page and every asset of this build, loads nothing from elsewhere,
    // and answers navigations to console addresses only.
    // The build's list of files, as vite-plugin-pwa writes it into the worker (JSON).
    expect(worker.body).toContain('"url":"index.html"');
    for (const file of readdirSync(join(REPO_ROOT, 'dist', 'web', 'assets')))
      expect(worker.body.includes(`"url":"assets/${file}"`), file).toBe(true);
    const code = worker.body.replaceAll('https://bit.ly/wb-precache', ''); // a warning's words
    expect(/importScripts|https?:\/\//.test(code), 'loads nothing from elsewhere').toBe(false);
    // It sends the write queue on Background Sync (its tag: vitro-writes).
    expect(worker.body).toMatch(/addEventListener\([`'"]sync[`'"]/);
    expect(worker.body).toContain('vitro-writes');
    expect(worker.body.includes('api|assets|files|docs|metrics'), 'leaves the API alone').toBe(
      true,
    );
    // What it fetches for the page: the console, whatever the Accept.
    const shell = await t.request({ method: 'GET', url: '/index.html' });
    expect(shell.statusCode).toBe(200);
    expect(shell.headers['content-security-policy']).toBe(consoleCsp(t.config));
    expect(shell.body).toBe(page.body);
    expect(shell.headers.vary).toBeUndefined();
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
