import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlobStore } from '../../src/files/create-blob-store.js';
import { S3BlobStore } from '../../src/files/s3-store.js';
import type { Config } from '../../src/config.js';
import { testConfig } from '../support/harness.js';
import { startTestS3, type TestS3 } from '../support/s3.js';
import { fixture } from './fixtures.js';

const BUCKET = 'vitro-test';
const WEBP = fixture('tiny.webp');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('S3BlobStore against a real S3-compatible server (s3rver)', () => {
  let server: TestS3;
  let store: S3BlobStore;
  let config: Config;

  beforeAll(async () => {
    server = await startTestS3(BUCKET);
    config = testConfig({ STORAGE_URL: server.storageUrl });
    const built = await createBlobStore(config);
    if (!(built instanceof S3BlobStore)) throw new Error('expected the S3 store');
    store = built;
  });

  afterAll(async () => {
    store.close();
    await server.close();
  });

  it('uploads, reads back and deletes a blob', async () => {
    await store.put('ws/0190a0b0-0000-7000-8000-00000000000a.webp', WEBP, 'image/webp');
    const blob = await store.get('ws/0190a0b0-0000-7000-8000-00000000000a.webp');
    expect(blob).not.toBeNull();
    expect(blob!.contentType).toBe('image/webp');
    expect(blob!.size).toBe(WEBP.length);
    expect((await readAll(blob!.stream)).equals(WEBP)).toBe(true);

    await store.delete('ws/0190a0b0-0000-7000-8000-00000000000a.webp');
    expect(await store.get('ws/0190a0b0-0000-7000-8000-00000000000a.webp')).toBeNull();
    await store.delete('ws/0190a0b0-0000-7000-8000-00000000000a.webp');
  });

  it('serves the bytes and content type through a presigned GET', async () => {
    await store.put('ws/signed.webp', WEBP, 'application/octet-stream');
    const before = Date.now();
    const link = await store.signedUrl('ws/signed.webp', {
      ttlSeconds: 900,
      contentType: 'image/webp',
    });
    expect(link.url).toMatch(/X-Amz-Signature=/);
    expect(link.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 900_000);
    expect(link.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 900_000);

    const res = await fetch(link.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await res.arrayBuffer()).equals(WEBP)).toBe(true);

    await store.delete('ws/signed.webp');
  });

  // s3rver does not check SigV4 signatures (its source says "unimplemented"), so a
  // tampered signature cannot be tested here; the expiry it does check.
  it('signs links that the server refuses once they have expired', async () => {
    await store.put('ws/old.webp', WEBP, 'image/webp');
    const storage = config.storage;
    if (storage.kind !== 's3') throw new Error('expected s3 storage');
    const earlier = new S3BlobStore(storage, () => Date.now() - 901_000);
    const link = await earlier.signedUrl('ws/old.webp', {
      ttlSeconds: 900,
      contentType: 'image/webp',
    });
    earlier.close();
    expect(link.expiresAt.getTime()).toBeLessThan(Date.now());
    const res = await fetch(link.url);
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/expired/);
  });

  it('refuses to overwrite an existing key', async () => {
    await store.put('ws/once.webp', WEBP, 'image/webp');
    await expect(store.put('ws/once.webp', fixture('tiny.png'), 'image/png')).rejects.toThrow(
      /already exists/,
    );
    const blob = await store.get('ws/once.webp');
    expect((await readAll(blob!.stream)).equals(WEBP)).toBe(true);
  });

  it('refuses an unsafe key before calling S3', async () => {
    await expect(store.put('../escape', WEBP, 'image/webp')).rejects.toThrow(/Invalid blob key/);
    expect(await store.get('../escape')).toBeNull();
  });
});
