import type { Readable } from 'node:stream';
import type { Config } from '../config.js';
import { FileLinkSigner } from './file-links.js';
import { LocalBlobStore } from './local-store.js';

/** A stored blob as it is read back: a stream of its bytes, its length and type. */
export interface StoredBlob {
  readonly stream: Readable;
  readonly size: number;
  readonly contentType: string;
}

/** A time-limited link to one blob. */
export interface SignedUrl {
  readonly url: string;
  readonly expiresAt: Date;
}

export interface SignedUrlOptions {
  readonly ttlSeconds: number;
  /** The type the link serves the blob as (S3 sets it on the response; the local store keeps the stored one). */
  readonly contentType: string;
}

/**
 * Where asset bytes live. Keys are chosen by the caller (UUIDv7-based, so unique);
 * `put` refuses a key that already exists, since two assets must never share bytes.
 */
export interface BlobStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The blob, or null when no blob has this key. */
  get(key: string): Promise<StoredBlob | null>;
  /** Removes the blob; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  signedUrl(key: string, options: SignedUrlOptions): Promise<SignedUrl>;
  /** Releases connections (S3); the app calls it when it closes. */
  close(): void;
}

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
