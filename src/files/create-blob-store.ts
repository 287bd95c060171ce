import type { Config } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { FileLinkSigner } from './file-links.js';
import { LocalBlobStore } from './local-store.js';

/** The HMAC signer of local file links, derived from the server secret. */
export function createFileLinkSigner(config: Config): FileLinkSigner {
  return new FileLinkSigner(config.secret, config.publicUrl);
}

/**
 * The store the configuration names: local directory (default) or an S3-compatible
 * bucket. The S3 SDK is loaded only for the latter: an embedded lab server never uses
 * it, and it adds about 3 MB to the heap.
 */
export async function createBlobStore(config: Config): Promise<BlobStore> {
  const storage = config.storage;
  switch (storage.kind) {
    case 'file':
      return new LocalBlobStore(storage.root, createFileLinkSigner(config));
    case 's3': {
      const { S3BlobStore } = await import('./s3-store.js');
      return new S3BlobStore(storage);
    }
  }
}
