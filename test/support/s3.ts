import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** A throwaway S3-compatible server (s3rver) on loopback, with one bucket. */
export interface TestS3 {
  readonly endpoint: string;
  /** STORAGE_URL naming the bucket on this server. */
  readonly storageUrl: string;
  /** Stops the server and gives the AWS credentials of the environment back. */
  close(): Promise<void>;
}

/**
 * Starts s3rver with `bucket`. The stores take credentials from the SDK's default
 * chain, as in production, so s3rver's are put in the environment until `close`.
 */
export async function startTestS3(bucket: string): Promise<TestS3> {
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, key: process.env.AWS_SECRET_ACCESS_KEY };
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: mkdtempSync(join(tmpdir(), 'vitro-s3rver-')),
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    storageUrl: `s3://${bucket}?endpoint=${endpoint}&region=us-east-1&force_path_style=true`,
    close: async () => {
      server.httpServer.closeAllConnections();
      await server.close();
      for (const [name, value] of [
        ['AWS_ACCESS_KEY_ID', saved.id],
        ['AWS_SECRET_ACCESS_KEY', saved.key],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
}
