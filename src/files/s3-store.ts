import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageConfig } from '../config.js';
import type { BlobStore, SignedUrl, SignedUrlOptions, StoredBlob } from './blob-store.js';
import { assertBlobKey, isBlobKey } from './blob-key.js';

type S3StorageConfig = Extract<StorageConfig, { kind: 's3' }>;

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404;

/**
 * Blobs in an S3-compatible bucket. Credentials come from the SDK's default chain
 * (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, profiles, instance roles).
 */
export class S3BlobStore implements BlobStore {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #now: () => number;

  constructor(storage: S3StorageConfig, now: () => number = Date.now) {
    this.#bucket = storage.bucket;
    this.#now = now;
    this.#client = new S3Client({
      // Most S3-compatible servers ignore the region; AWS needs region= in STORAGE_URL.
      region: storage.region ?? 'us-east-1',
      ...(storage.endpoint !== null ? { endpoint: storage.endpoint } : {}),
      forcePathStyle: storage.forcePathStyle,
      // Checksums only where S3 requires them: several S3-compatible servers
      // refuse the newer default checksum headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /**
   * Refuses an existing key with a HEAD first. Not atomic (S3's If-None-Match is
   * missing from many compatible servers), but keys are UUIDv7-based, so this only
   * has to catch a caller's bug, not a race.
   */
  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    assertBlobKey(key);
    if (await this.#exists(key)) throw new Error(`Blob key already exists: ${key}`);
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.#bucket,
        Key: key,
        Body: bytes,
        ContentType: contentType,
        ContentLength: bytes.length,
      }),
    );
  }

  async #exists(key: string): Promise<boolean> {
    try {
      await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: key }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async get(key: string): Promise<StoredBlob | null> {
    if (!isBlobKey(key)) return null;
    try {
      const response = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#bucket, Key: key }),
      );
      if (!(response.Body instanceof Readable)) throw new Error('S3 returned no body stream');
      return {
        stream: response.Body,
        size: response.ContentLength ?? 0,
        contentType: response.ContentType ?? 'application/octet-stream',
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: key }));
  }

  /** A presigned GET; the bucket answers with `contentType` whatever the object holds. */
  async signedUrl(key: string, options: SignedUrlOptions): Promise<SignedUrl> {
    assertBlobKey(key);
    const signedAt = this.#now();
    const command = new GetObjectCommand({
      Bucket: this.#bucket,
      Key: key,
      ResponseContentType: options.contentType,
    });
    const url = await getSignedUrl(this.#client, command, {
      expiresIn: options.ttlSeconds,
      signingDate: new Date(signedAt),
    });
    return { url, expiresAt: new Date(signedAt + options.ttlSeconds * 1000) };
  }

  /** Releases the client's sockets. */
  close(): void {
    this.#client.destroy();
  }
}
