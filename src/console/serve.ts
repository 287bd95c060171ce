import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { sendFailure, type HttpConventions } from '../kernel/http.js';
import { CONSOLE_PAGES } from './pages.js';

/** Where `vite build` puts the console (web/vite.config.ts). */
const BUILT = fileURLToPath(new URL('../../dist/web/', import.meta.url));

/**
 * The console page's Content-Security-Policy: scripts, styles and connections
 * from this origin only, no inline script or style, no plugin, no framing. Photos
 * stored on S3 come from its presigned https links.
 */
export function consoleCsp(config: Pick<Config, 'storage'>): string {
  const images = config.storage.kind === 's3' ? "'self' data: blob: https:" : "'self' data: blob:";
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${images}`,
    "connect-src 'self'",
    "font-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Vitro</title></head>
<body><main><h1>The Vitro console is not built</h1>
<p>Run <code>npm run build:web</code> (or <code>npm install</code>) and reload. The API is at
<a href="/api/v1/openapi.json">/api/v1</a>, its reference at <a href="/docs">/docs</a>.</p></main></body></html>`;

/**
 * The built files outside /assets/ (their names carry no hash): the favicon, the
 * installable console's manifest and icons, and its service worker, which the
 * browser must always fetch afresh to learn of a new build.
 */
const ROOT_FILES = [
  { path: 'favicon.svg', type: 'image/svg+xml', cacheControl: 'public, max-age=86400' },
  {
    path: 'manifest.webmanifest',
    type: 'application/manifest+json',
    cacheControl: 'public, max-age=3600',
  },
  { path: 'icons/icon-192.png', type: 'image/png', cacheControl: 'public, max-age=86400' },
  { path: 'icons/icon-512.png', type: 'image/png', cacheControl: 'public, max-age=86400' },
  { path: 'icons/maskable-512.png', type: 'image/png', cacheControl: 'public, max-age=86400' },
  { path: 'sw.js', type: 'text/javascript; charset=utf-8', cacheControl: 'no-cache, no-store' },
] as const;

/** A browser asking for a page (not a script asking for JSON). */
export function wantsHtml(req: FastifyRequest): boolean {
  const accept = req.headers.accept;
  return typeof accept === 'string' && accept.includes('text/html');
}

/** The answer of `GET /` to JSON clients, as before the console. */
const ROOT_ANSWER = {
  ok: true,
  data: {
    name: 'Vitro lab API',
    docs: '/docs',
    openapi: '/api/v1/openapi.json',
    api: '/api/v1',
  },
};

/** Addresses that are never the console's: the API, its files, its docs. */
const NOT_CONSOLE = /^\/(api|assets|files|docs)(\/|$)/;

/**
 * Serves the console from the same process: `/` and every console address to a
 * browser (Accept: text/html), its hashed assets under /assets/ (cached for good),
 * and nothing else. JSON clients get what they got before: `GET /` its pointer to
 * the docs, any other console address the API's 404. A browser opening an address
 * nobody serves (`/Explants`, `/explant/x`) gets the console with 404, and the
 * console shows its not-found page; outside the API, its files and its docs.
 */
export async function installConsole(
  app: FastifyInstance,
  config: Config,
  http: HttpConventions,
): Promise<void> {
  const indexFile = `${BUILT}index.html`;
  const built = existsSync(indexFile);
  const page = built ? readFileSync(indexFile, 'utf8') : NOT_BUILT;
  const csp = consoleCsp(config);

  const pageHeaders = (reply: FastifyReply, status: number) =>
    reply
      .code(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', csp)
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer');
  const sendPage = (reply: FastifyReply, status = 200) =>
    pageHeaders(reply, status).header('vary', 'Accept').send(page);

  app.get('/', { schema: { hide: true } }, async (req, reply) => {
    if (wantsHtml(req)) return sendPage(reply);
    return reply.header('vary', 'Accept').send(ROOT_ANSWER);
  });

  for (const path of CONSOLE_PAGES) {
    app.get(path, { schema: { hide: true } }, async (req, reply) => {
      if (wantsHtml(req)) return sendPage(reply);
      const url = req.url.split('?')[0] ?? req.url;
      return sendFailure(reply, {
        status: 404,
        code: 'NOT_FOUND',
        message: `No route GET ${url}`,
        headers: {},
      });
    });
  }

  http.answerUnknownPages((req, reply) => {
    const path = req.url.split('?')[0] ?? req.url;
    return wantsHtml(req) && !NOT_CONSOLE.test(path) ? sendPage(reply, 404) : undefined;
  });

  if (!built) return;
  // The shell the service worker keeps: the page whatever the Accept (no Vary, which
  // would keep the kept copy from answering a navigation's Accept).
  app.get('/index.html', { schema: { hide: true } }, async (_req, reply) =>
    pageHeaders(reply, 200).send(page),
  );
  // A build of an older Vitro left in dist/ may lack some (the next build writes them).
  for (const file of ROOT_FILES.filter((file) => existsSync(`${BUILT}${file.path}`))) {
    const content = readFileSync(`${BUILT}${file.path}`);
    app.get(`/${file.path}`, { schema: { hide: true } }, async (_req, reply) =>
      reply
        .header('content-type', file.type)
        .header('cache-control', file.cacheControl)
        .header('x-content-type-options', 'nosniff')
        .send(content),
    );
  }
  await app.register(fastifyStatic, {
    root: `${BUILT}assets`,
    prefix: '/assets/',
    decorateReply: false,
    index: false,
    list: false,
    // File names carry a hash of their content: a new build has new names.
    immutable: true,
    maxAge: '365d',
    setHeaders: (reply) => void reply.header('x-content-type-options', 'nosniff'),
  });
}
