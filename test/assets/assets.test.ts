import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { fixture } from '../files/fixtures.js';
import { startHttpsServer, TEST_CA, type TestHttpsServer } from '../files/https-server.js';
import {
  client,
  dataOf,
  expectError,
  expectSameAnswer,
  GENEROUS_LIMITS,
  ISO_MS,
  keysOf,
  newExplant,
  newPlant,
  randomId,
} from '../support/helpers.js';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

const IMAGES = [
  ['tiny.jpg', 'image/jpeg'],
  ['tiny.png', 'image/png'],
  ['tiny.webp', 'image/webp'],
  ['tiny.gif', 'image/gif'],
] as const;
const NON_IMAGES = ['notes.txt', 'header-only.pdf', 'leaf.svg', 'tiny.bmp', 'tiny.tiff'];
const PNG = fixture('tiny.png');
const ASSET_KEYS = [
  'caption',
  'captured_at',
  'content_type',
  'created_at',
  'file_name',
  'id',
  'kind',
  'target',
  'target_id',
  'uploaded_by',
  'view_url',
  'view_url_expires_at',
];

/** The blobs stored under the local store's root (its working folders aside). */
function storedBlobs(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else found.push(join(dir, entry.name));
    }
  };
  walk(root);
  return found;
}

/** Refuses inserts of assets of one workspace, as a failed row write would. */
async function refuseAssetInserts(database: Database, workspaceId: string) {
  const trigger = sql.raw(`vitro_test_refuse_assets_${workspaceId.replace(/-/g, '')}`);
  const literal = sql.lit(workspaceId);
  if (database.dialect === 'postgres') {
    await sql`CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'test: asset refused'; END $$`.execute(database.db);
    await sql`CREATE TRIGGER ${trigger} BEFORE INSERT ON assets FOR EACH ROW
      WHEN (NEW.workspace_id = ${literal}) EXECUTE FUNCTION ${trigger}()`.execute(database.db);
    return async () => {
      await sql`DROP TRIGGER ${trigger} ON assets`.execute(database.db);
      await sql`DROP FUNCTION ${trigger}()`.execute(database.db);
    };
  }
  await sql`CREATE TRIGGER ${trigger} BEFORE INSERT ON assets WHEN NEW.workspace_id = ${literal}
    BEGIN SELECT RAISE(ABORT, 'test: asset refused'); END`.execute(database.db);
  return async () => {
    await sql`DROP TRIGGER ${trigger}`.execute(database.db);
  };
}

describeOnDatabases('Media files', (target) => {
  const { t, lab, owner } = labSuite(target, {
    env: { ...GENEROUS_LIMITS, VITRO_ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1/32' },
    imageFetch: { ca: TEST_CA },
  });
  let plant: { id: string };
  let images: TestHttpsServer;
  let filesRoot: string;
  let undo: (() => Promise<void>) | null = null;

  beforeAll(async () => {
    images = await startHttpsServer((req, res) => {
      const path = req.url ?? '';
      if (path.startsWith('/img/')) {
        res.writeHead(200, { 'content-type': 'text/plain' }).end(PNG);
      } else if (path === '/redirect') {
        res.writeHead(302, { location: '/img/leaf.png' }).end();
      } else if (path === '/huge') {
        res.writeHead(200, { 'content-type': 'image/png' });
        const chunk = Buffer.alloc(1024 * 1024, 1);
        for (let i = 0; i < 11; i++) res.write(chunk);
        res.end();
      } else if (path === '/text') {
        res.writeHead(200, { 'content-type': 'image/png' }).end('not an image');
      } else {
        res.writeHead(404, { 'content-type': 'image/png' }).end(PNG);
      }
    });
  });
  afterAll(() => images.close());
  beforeEach(async () => {
    plant = await newPlant(owner);
    filesRoot = join(t.config.dataDir, 'files');
  });
  afterEach(async () => {
    await undo?.();
    undo = null;
  });

  const attach = (fields: Record<string, unknown>, headers: Record<string, string> = {}) =>
    owner.post('/api/v1/assets', { target: 'plant', target_id: plant.id, ...fields }, headers);
  const base64 = (bytes: Buffer) => bytes.toString('base64');
  const view = (url: string) =>
    t.request({ method: 'GET', url: new URL(url).pathname + new URL(url).search });
  const blobsOfLab = () => storedBlobs(join(filesRoot, lab.workspaceId));

  it.each(IMAGES)(
    'stores %s sent inline, typed from its bytes, and serves it at view_url',
    async (name, mime) => {
      const bytes = fixture(name);
      const res = await attach({ image_base64: base64(bytes), caption: 'Callus at week 3' });
      const asset = dataOf(res, 201);
      expect(res.headers['idempotent-replay']).toBe('false');
      expect(keysOf(asset)).toEqual(ASSET_KEYS);
      expect(asset).toMatchObject({
        target: 'plant',
        target_id: plant.id,
        kind: 'photo',
        file_name: 'photo',
        content_type: mime,
        caption: 'Callus at week 3',
        captured_at: null,
        uploaded_by: lab.owner.memberId,
      });
      expect(asset.created_at).toMatch(ISO_MS);
      const expires = Date.parse(asset.view_url_expires_at);
      expect(expires - Date.now()).toBeGreaterThan(14 * 60_000);
      expect(expires - Date.now()).toBeLessThanOrEqual(15 * 60_000 + 1000);

      const file = await view(asset.view_url);
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(bytes)).toBe(true);
      expect(file.headers['content-type']).toBe(mime);
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(String(file.headers['cache-control'])).toMatch(/max-age=\d+/);

      const got = dataOf(await owner.get(`/api/v1/assets/${asset.id}`), 200);
      expect({ ...got, view_url: null, view_url_expires_at: null }).toEqual({
        ...asset,
        view_url: null,
        view_url_expires_at: null,
      });
    },
  );

  it('reads the type from the bytes, never from a data-URL prefix or the file name', async () => {
    const res = await attach({
      image_base64: `data:text/plain;base64,${base64(PNG)}`,
      filename: 'leaf.gif',
    });
    expect(dataOf(res, 201)).toMatchObject({ content_type: 'image/png', file_name: 'leaf.gif' });
  });

  it.each(NON_IMAGES)('refuses %s with 415 and stores nothing', async (name) => {
    expectError(
      await attach({ image_base64: base64(fixture(name)), filename: 'x.png' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expect(blobsOfLab()).toEqual([]);
    expect(
      dataOf(await owner.get(`/api/v1/assets?target=plant&target_id=${plant.id}`), 200),
    ).toEqual([]);
  });

  it('refuses invalid input with 422 naming the problem, and stores nothing', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /exactly one of image_url and image_base64/],
      [{ image_base64: base64(PNG), image_url: images.url('/img/a.png') }, /exactly one/],
      [{ image_base64: '###' }, /^image_base64: must be base64/],
      [{ image_base64: '' }, /^image_base64:/],
      [{ image_url: 'not a url' }, /^image_url:/],
      [{ image_url: images.url('/img/a.png').replace('https:', 'http:') }, /https/],
      [{ image_base64: base64(PNG), filename: '' }, /^filename:/],
      [{ image_base64: base64(PNG), filename: 'f'.repeat(201) }, /^filename:/],
      [{ image_base64: base64(PNG), caption: 'c'.repeat(501) }, /^caption:/],
      [{ image_base64: base64(PNG), url: 'x' }, /unknown field "url"/],
      [{ image_base64: base64(PNG), target: 'task' }, /^target:/],
    ];
    for (const [fields, problem] of cases) {
      expectError(await attach(fields), 422, 'VALIDATION_ERROR', problem);
    }
    expect(blobsOfLab()).toEqual([]);
  });

  it('answers a target of another workspace or of another kind exactly like an unknown one (422)', async () => {
    const other = await createLab(t.database);
    const foreign = await newPlant(client(t, other.owner));
    const explant = await newExplant(owner);
    const reference = await attach({ image_base64: base64(PNG), target_id: randomId() });
    expectSameAnswer(
      await attach({ image_base64: base64(PNG), target_id: foreign.id }),
      reference,
      422,
      'VALIDATION_ERROR',
    );
    expectError(
      await attach({ image_base64: base64(PNG), target_id: explant.id }),
      422,
      'VALIDATION_ERROR',
      /^target_id: no plant with this id/,
    );
    dataOf(
      await attach({ image_base64: base64(PNG), target: 'explant', target_id: explant.id }),
      201,
    );
  });

  it('refuses a body over 4.5 MB with 413 before reading it', async () => {
    const res = await attach({ image_base64: 'A'.repeat(5 * 1024 * 1024) });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(blobsOfLab()).toEqual([]);
  });

  it('downloads image_url and names the file after its last path segment', async () => {
    const asset = dataOf(await attach({ image_url: images.url('/img/leaf%20one.png') }), 201);
    expect(asset).toMatchObject({ file_name: 'leaf one.png', content_type: 'image/png' });
    expect((await view(asset.view_url)).rawPayload.equals(PNG)).toBe(true);
  });

  it('answers the failures of image_url with the codes of the spec and stores nothing', async () => {
    expectError(
      await attach({ image_url: images.url('/redirect') }),
      422,
      'IMAGE_URL_FETCH_FAILED',
      /redirect/,
    );
    expectError(
      await attach({ image_url: images.url('/missing') }),
      422,
      'IMAGE_URL_FETCH_FAILED',
      /404/,
    );
    expectError(await attach({ image_url: images.url('/huge') }), 413, 'PAYLOAD_TOO_LARGE');
    expectError(await attach({ image_url: images.url('/text') }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const before = images.connections;
    expectError(
      await attach({ image_url: 'https://10.1.2.3/leaf.png' }),
      422,
      'VALIDATION_ERROR',
      /public address/,
    );
    expectError(
      await attach({ image_url: `https://[::ffff:127.0.0.2]:${images.port}/img/a.png` }),
      422,
      'VALIDATION_ERROR',
      /public address/,
    );
    expect(images.connections).toBe(before);
    expect(blobsOfLab()).toEqual([]);
  });

  it('replays a retried create with the first asset and a freshly signed view_url', async () => {
    const key = { 'idempotency-key': `asset-${randomId()}` };
    const first = await attach({ image_base64: base64(PNG) }, key);
    const asset = dataOf(first, 201);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const replay = await attach({ image_base64: base64(PNG) }, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replay']).toBe('true');
    const again = body(replay).data;
    expect({ ...again, view_url: null, view_url_expires_at: null }).toEqual({
      ...asset,
      view_url: null,
      view_url_expires_at: null,
    });
    expect(again.view_url).not.toBe(asset.view_url);
    expect(again.view_url_expires_at > asset.view_url_expires_at).toBe(true);
    expect((await view(again.view_url)).statusCode).toBe(200);
    expect(blobsOfLab()).toHaveLength(1);
  });

  it('removes the stored image when its row cannot be saved, and a retry then works', async () => {
    undo = await refuseAssetInserts(t.database, lab.workspaceId);
    const key = { 'idempotency-key': `asset-${randomId()}` };
    const failed = await attach({ image_base64: base64(PNG) }, key);
    expectError(failed, 500, 'ASSET_INSERT_FAILED', /same Idempotency-Key/);
    expect(body(failed).error).not.toContain('refused');
    expect(blobsOfLab()).toEqual([]);
    await undo();
    undo = null;
    const retried = await attach({ image_base64: base64(PNG) }, key);
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replay']).toBe('false');
    expect(blobsOfLab()).toHaveLength(1);
  });

  it('refuses a tampered or foreign file link with 403 in the envelope', async () => {
    const asset = dataOf(await attach({ image_base64: base64(PNG) }), 201);
    const url = new URL(asset.view_url);
    const sig = url.searchParams.get('sig')!;
    url.searchParams.set('sig', `${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`);
    const tampered = await view(url.toString());
    expectError(tampered, 403, 'FORBIDDEN');
    expect(tampered.headers['x-request-id']).toBeDefined();
    const other = dataOf(await attach({ image_base64: base64(fixture('tiny.gif')) }), 201);
    const swapped = new URL(other.view_url);
    swapped.searchParams.set('sig', new URL(asset.view_url).searchParams.get('sig')!);
    swapped.searchParams.set('expires', new URL(asset.view_url).searchParams.get('expires')!);
    expectError(await view(swapped.toString()), 403, 'FORBIDDEN');
  });

  it('lists the files of one record newest first, paged, each with a working link', async () => {
    const ids: string[] = [];
    for (const [name] of IMAGES) {
      ids.push(dataOf(await attach({ image_base64: base64(fixture(name)) }), 201).id);
    }
    const other = await newPlant(owner);
    await attach({ image_base64: base64(PNG), target_id: other.id });
    const url = `/api/v1/assets?target=plant&target_id=${plant.id}`;
    const all = dataOf(await owner.get(url), 200) as { id: string; view_url: string }[];
    expect(all.map((a) => a.id)).toEqual([...ids].reverse());
    const first = await owner.get(`${url}&limit=3`);
    expect(dataOf(first, 200)).toHaveLength(3);
    const cursor: string = body(first).meta.next_cursor;
    const second = await owner.get(`${url}&limit=3&cursor=${encodeURIComponent(cursor)}`);
    expect(dataOf(second, 200).map((a: { id: string }) => a.id)).toEqual([ids[0]]);
    expect(body(second).meta.next_cursor).toBeNull();
    for (const asset of all) expect((await view(asset.view_url)).statusCode).toBe(200);
  });

  it('answers files and records of another workspace exactly like unknown ones (404)', async () => {
    const asset = dataOf(await attach({ image_base64: base64(PNG) }), 201);
    const stranger = client(t, (await createLab(t.database)).owner);
    expectSameAnswer(
      await stranger.get(`/api/v1/assets/${asset.id}`),
      await stranger.get(`/api/v1/assets/${randomId()}`),
      404,
      'NOT_FOUND',
    );
    expectSameAnswer(
      await stranger.get(`/api/v1/assets?target=plant&target_id=${plant.id}`),
      await stranger.get(`/api/v1/assets?target=plant&target_id=${randomId()}`),
      404,
      'NOT_FOUND',
    );
    expectError(
      await owner.get('/api/v1/assets?target=plant'),
      422,
      'VALIDATION_ERROR',
      /target_id/,
    );
    expectError(await owner.get('/api/v1/assets/not-an-id'), 404, 'NOT_FOUND');
  });

  it('refuses a viewer and a device token, and stores nothing', async () => {
    const viewer = client(t, await lab.actor('viewer'));
    expectError(
      await viewer.post('/api/v1/assets', {
        target: 'plant',
        target_id: plant.id,
        image_base64: base64(PNG),
      }),
      403,
      'FORBIDDEN',
      /member role/,
    );
    const device = client(t, await lab.deviceToken());
    expectError(
      await device.post('/api/v1/assets', {
        target: 'plant',
        target_id: plant.id,
        image_base64: base64(PNG),
      }),
      403,
      'DEVICE_TOKEN_NOT_ACCEPTED',
    );
    expect(blobsOfLab()).toEqual([]);
    dataOf(await viewer.get(`/api/v1/assets?target=plant&target_id=${plant.id}`), 200);
  });
});
