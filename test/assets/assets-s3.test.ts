import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fixture } from '../files/fixtures.js';
import { dataOf, expectError, GENEROUS_LIMITS, newPlant } from '../support/helpers.js';
import { startTestS3, type TestS3 } from '../support/s3.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

const BUCKET = 'vitro-assets';
const JPEG = fixture('tiny.jpg');

/** The API on S3-compatible storage (s3rver on loopback): upload, presigned read, cleanup. */
describeOnDatabases('Media files on S3 storage', (target) => {
  let server: TestS3;
  let s3: S3Client;
  beforeAll(async () => {
    server = await startTestS3(BUCKET);
  });
  afterAll(() => server.close());
  const { t, lab, owner } = labSuite(target, () => ({
    env: { ...GENEROUS_LIMITS, STORAGE_URL: server.storageUrl },
  }));
  beforeAll(() => {
    s3 = new S3Client({ endpoint: server.endpoint, region: 'us-east-1', forcePathStyle: true });
  });
  afterAll(() => s3.destroy());

  const objectsOf = async (workspaceId: string) =>
    (
      (await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${workspaceId}/` })))
        .Contents ?? []
    ).map((o) => o.Key);

  it('stores the image in the bucket and hands out a presigned link that serves it', async () => {
    const plant = await newPlant(owner);
    const asset = dataOf(
      await owner.post('/api/v1/assets', {
        target: 'plant',
        target_id: plant.id,
        image_base64: JPEG.toString('base64'),
      }),
      201,
    );
    expect(await objectsOf(lab.workspaceId)).toEqual([`${lab.workspaceId}/${asset.id}.jpg`]);
    const head = await s3.send(
      new HeadObjectCommand({ Bucket: BUCKET, Key: `${lab.workspaceId}/${asset.id}.jpg` }),
    );
    expect(head.ContentType).toBe('image/jpeg');
    const res = await fetch(asset.view_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await res.arrayBuffer()).equals(JPEG)).toBe(true);
    expect(new URL(asset.view_url).searchParams.get('X-Amz-Expires')).toBe('900');
  });

  it('deletes the uploaded object when the row cannot be saved', async () => {
    const plant = await newPlant(owner);
    // Refuses this workspace's asset rows (a CHECK the row cannot meet).
    const name = sql.raw(`vitro_test_no_assets_${lab.workspaceId.replace(/-/g, '')}`);
    const literal = sql.lit(lab.workspaceId);
    if (t.database.dialect === 'postgres') {
      await sql`ALTER TABLE assets ADD CONSTRAINT ${name} CHECK (workspace_id <> ${literal}) NOT VALID`.execute(
        t.database.db,
      );
    } else {
      await sql`CREATE TRIGGER ${name} BEFORE INSERT ON assets WHEN NEW.workspace_id = ${literal}
        BEGIN SELECT RAISE(ABORT, 'refused'); END`.execute(t.database.db);
    }
    try {
      expectError(
        await owner.post('/api/v1/assets', {
          target: 'plant',
          target_id: plant.id,
          image_base64: JPEG.toString('base64'),
        }),
        500,
        'ASSET_INSERT_FAILED',
      );
      expect(await objectsOf(lab.workspaceId)).toEqual([]);
    } finally {
      if (t.database.dialect === 'postgres') {
        await sql`ALTER TABLE assets DROP CONSTRAINT ${name}`.execute(t.database.db);
      } else {
        await sql`DROP TRIGGER ${name}`.execute(t.database.db);
      }
    }
  });
});
