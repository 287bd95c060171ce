import type { Readable } from 'node:stream';

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
