import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBlobStore, createFileLinkSigner } from '../../src/files/create-blob-store.js';
import { FileLinkSigner } from '../../src/files/file-links.js';
import { registerFileRoutes } from '../../src/files/file-routes.js';
import { LocalBlobStore } from '../../src/files/local-store.js';
import { installHttpConventions } from '../../src/kernel/http.js';
import { installOpenApi } from '../../src/kernel/openapi.js';
import { testConfig } from '../support/harness.js';
import { runNodeScript } from '../support/node-script.js';
import { fixture } from './fixtures.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const JPEG = fixture('tiny.jpg');
const T0 = Date.UTC(2030, 0, 1);

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('LocalBlobStore', () => {
  let root: string;
  let store: LocalBlobStore;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'vitro-blobs-'));
    store = new LocalBlobStore(root, new FileLinkSigner('s'.repeat(40), 'http://vitro.test'));
  });

  it('puts, gets and deletes a blob with its content type', async () => {
    await store.put('ws1/0190a0b0-0000-7000-8000-000000000001.jpg', JPEG, 'image/jpeg');
    const blob = await store.get('ws1/0190a0b0-0000-7000-8000-000000000001.jpg');
    expect(blob).not.toBeNull();
    expect(blob!.contentType).toBe('image/jpeg');
    expect(blob!.size).toBe(JPEG.length);
    expect((await readAll(blob!.stream)).equals(JPEG)).toBe(true);

    await store.delete('ws1/0190a0b0-0000-7000-8000-000000000001.jpg');
    expect(await store.get('ws1/0190a0b0-0000-7000-8000-000000000001.jpg')).toBeNull();
    await store.delete('ws1/0190a0b0-0000-7000-8000-000000000001.jpg');
  });

  it('answers null for a key never stored, and leaves no temporary files behind', async () => {
    await store.put('a/b.png', fixture('tiny.png'), 'image/png');
    expect(await store.get('a/c.png')).toBeNull();
    expect(await store.get('a')).toBeNull();
    expect(readdirSync(join(root, '.tmp'))).toEqual([]);
  });

  it('refuses to overwrite an existing key and keeps the first bytes', async () => {
    await store.put('k/one.jpg', JPEG, 'image/jpeg');
    await expect(store.put('k/one.jpg', fixture('tiny.png'), 'image/png')).rejects.toThrow(
      /already exists/,
    );
    const blob = await store.get('k/one.jpg');
    expect(blob!.contentType).toBe('image/jpeg');
    expect((await readAll(blob!.stream)).equals(JPEG)).toBe(true);
  });

  it.each([
    '../escape.jpg',
    'a/../../escape.jpg',
    '..',
    '.',
    '/etc/passwd',
    'a//b.jpg',
    'a/',
    '.hidden',
    'a/.types/b',
    '.tmp/x',
    'a\\b.jpg',
    'a b.jpg',
    'a%2e%2e/b',
    'caf\u00e9.jpg',
    'a..b.jpg',
    'x\0.jpg',
    '',
    'k'.repeat(513),
  ])('refuses the key %j', async (key) => {
    await expect(store.put(key, JPEG, 'image/jpeg')).rejects.toThrow(/Invalid blob key/);
    await expect(store.delete(key)).rejects.toThrow(/Invalid blob key/);
    expect(await store.get(key)).toBeNull();
  });

  it('refuses a content type that could not be sent back as a header', async () => {
    await expect(store.put('k.jpg', JPEG, 'image/jpeg\r\nx-evil: 1')).rejects.toThrow(/type/);
    expect(existsSync(join(root, 'k.jpg'))).toBe(false);
  });

  it('is the store the default configuration builds', async () => {
    expect(await createBlobStore(testConfig())).toBeInstanceOf(LocalBlobStore);
  });

  it('leaves the S3 SDK unloaded unless the configuration names a bucket', async () => {
    // A fresh process: the S3 SDK is CommonJS, so what it loaded is in require's cache.
    const dir = mkdtempSync(join(tmpdir(), 'vitro-s3-unloaded-'));
    const script = `
      import { createRequire } from 'node:module';
      import { buildApp } from './src/app.ts';
      import { loadConfig } from './src/config.ts';
      import { createBlobStore } from './src/files/create-blob-store.ts';
      const sdkModules = () => Object.keys(createRequire(process.cwd() + '/').cache)
        .filter((path) => path.includes('/@aws-sdk/')).length;
      const app = await buildApp(loadConfig({ VITRO_DATA_DIR: ${JSON.stringify(dir)}, LOG_LEVEL: 'silent' }));
      await app.ready();
      const local = sdkModules();
      await app.close();
      const store = await createBlobStore(loadConfig({ VITRO_DATA_DIR: ${JSON.stringify(dir)},
        STORAGE_URL: 's3://bucket?endpoint=http://127.0.0.1:9&region=us-east-1' }));
      store.close();
      console.log(JSON.stringify({ local, s3: sdkModules() }));`;
    const { code, stdout } = await runNodeScript(script);
    expect(code).toBe(0);
    const counts = JSON.parse(stdout) as { local: number; s3: number };
    expect(counts.local).toBe(0);
    // The count sees the SDK once it is loaded, so the zero above means something.
    expect(counts.s3).toBeGreaterThan(0);
  });
});

describe('GET /files/* (signed links to local blobs)', () => {
  let app: FastifyInstance;
  let store: LocalBlobStore;
  let now = T0;
  const clock = () => now;

  beforeAll(async () => {
    const config = testConfig({ PUBLIC_URL: 'https://vitro.example' });
    const signer = createFileLinkSigner(config);
    store = new LocalBlobStore(mkdtempSync(join(tmpdir(), 'vitro-blobs-')), signer, clock);
    app = Fastify({ logger: false, genReqId: () => randomUUID() });
    installHttpConventions(app);
    await installOpenApi(app, config.publicUrl);
    registerFileRoutes(app, { store, signer, now: clock });
    await app.ready();
    await store.put('ws/photo.jpg', JPEG, 'image/jpeg');
    await store.put('ws/other.jpg', fixture('tiny.gif'), 'image/gif');
  });
  afterAll(() => app.close());
  beforeEach(() => {
    now = T0;
  });

  /** The path and query of a signed link, as the client sends it. */
  const pathOf = (url: string) => url.slice('https://vitro.example'.length);

  it('serves the bytes with their type and caching headers', async () => {
    const link = await store.signedUrl('ws/photo.jpg', {
      ttlSeconds: 900,
      contentType: 'image/jpeg',
    });
    expect(link.url).toMatch(
      /^https:\/\/vitro\.example\/files\/ws\/photo\.jpg\?expires=\d+&sig=[\w-]{43}$/,
    );
    expect(link.expiresAt.getTime()).toBe(T0 + 900_000);

    now = T0 + 300_000;
    const res = await app.inject({ method: 'GET', url: pathOf(link.url) });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(JPEG)).toBe(true);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['content-length']).toBe(String(JPEG.length));
    expect(res.headers['cache-control']).toBe('private, max-age=600');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  async function expectForbidden(url: string, message: RegExp) {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      ok: false,
      data: null,
      error: expect.any(String),
      code: 'FORBIDDEN',
    });
    expect(res.json().error).toMatch(message);
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  }

  it('refuses an expired link with 403 in the envelope', async () => {
    const link = await store.signedUrl('ws/photo.jpg', {
      ttlSeconds: 900,
      contentType: 'image/jpeg',
    });
    now = T0 + 900_000;
    await expectForbidden(pathOf(link.url), /expired/);
  });

  it('refuses a tampered signature or expiry', async () => {
    const link = pathOf(
      (await store.signedUrl('ws/photo.jpg', { ttlSeconds: 900, contentType: 'image/jpeg' })).url,
    );
    const sig = /sig=([\w-]+)/.exec(link)![1]!;
    const flipped = `${sig.slice(0, 10)}${sig[10] === 'A' ? 'B' : 'A'}${sig.slice(11)}`;
    await expectForbidden(link.replace(sig, flipped), /not valid/);
    await expectForbidden(
      link.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 3600}`),
      /not valid/,
    );
    await expectForbidden(link.replace(sig, `${sig}x`), /not valid/);
  });

  it('refuses a signature made for another key', async () => {
    const link = pathOf(
      (await store.signedUrl('ws/photo.jpg', { ttlSeconds: 900, contentType: 'image/jpeg' })).url,
    );
    await expectForbidden(link.replace('ws/photo.jpg', 'ws/other.jpg'), /not valid/);
  });

  it('refuses a link without its signature or expiry, or with a malformed expiry', async () => {
    await expectForbidden('/files/ws/photo.jpg', /incomplete/);
    await expectForbidden('/files/ws/photo.jpg?expires=99999999999', /incomplete/);
    await expectForbidden('/files/ws/photo.jpg?expires=soon&sig=abc', /malformed/);
  });

  it('refuses a link signed with another secret', async () => {
    const foreign = new FileLinkSigner(
      'another-secret-another-secret-0123',
      'https://vitro.example',
    );
    await expectForbidden(pathOf(foreign.sign('ws/photo.jpg', T0 / 1000 + 900)), /not valid/);
  });

  it('stays out of the OpenAPI document', () => {
    const paths = Object.keys((app.swagger() as { paths?: object }).paths ?? {});
    expect(paths.filter((path) => path.startsWith('/files'))).toEqual([]);
  });

  it('answers 404 in the envelope for a valid link to a deleted blob', async () => {
    await store.put('ws/gone.jpg', JPEG, 'image/jpeg');
    const link = await store.signedUrl('ws/gone.jpg', {
      ttlSeconds: 900,
      contentType: 'image/jpeg',
    });
    await store.delete('ws/gone.jpg');
    const res = await app.inject({ method: 'GET', url: pathOf(link.url) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ ok: false, data: null, code: 'NOT_FOUND' });
  });
});
