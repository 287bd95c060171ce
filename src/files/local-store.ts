import { randomUUID } from 'node:crypto';
import { link, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BlobStore, SignedUrl, SignedUrlOptions, StoredBlob } from './blob-store.js';
import { assertBlobKey, isBlobKey } from './blob-key.js';
import type { FileLinkSigner } from './file-links.js';

// Printable ASCII only: the type is sent back verbatim as a response header.
const CONTENT_TYPE = /^[\x21-\x7e][\x20-\x7e]{0,254}$/;

/** Folders of the store are its owner's only (the files are 0600 from their first byte). */
const PRIVATE_DIR = 0o700;

const isMissing = (error: unknown) =>
  error instanceof Error &&
  'code' in error &&
  ['ENOENT', 'ENOTDIR', 'EISDIR'].includes(String(error.code));

/**
 * Blobs as files under one root directory: `<root>/<key>` holds the bytes and
 * `<root>/.types/<key>` the content type; `<root>/.tmp` holds writes in progress.
 * Keys never start a segment with a dot, so neither folder can collide with one.
 */
export class LocalBlobStore implements BlobStore {
  readonly #root: string;
  readonly #signer: FileLinkSigner;
  readonly #now: () => number;

  constructor(root: string, signer: FileLinkSigner, now: () => number = Date.now) {
    this.#root = root;
    this.#signer = signer;
    this.#now = now;
  }

  #blobPath(key: string) {
    return join(this.#root, key);
  }

  #typePath(key: string) {
    return join(this.#root, '.types', key);
  }

  /** Writes bytes to a fresh temporary file, flushed to disk, and returns its path. */
  async #writeTemp(bytes: Buffer | string): Promise<string> {
    const dir = join(this.#root, '.tmp');
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
    const path = join(dir, randomUUID());
    const handle = await open(path, 'wx', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return path;
  }

  /**
   * Atomic and never overwrites: the bytes appear under their key through link(),
   * which fails if the key exists (rename() would silently replace it). The type
   * file follows; until it exists, get() treats the key as absent.
   */
  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    assertBlobKey(key);
    if (!CONTENT_TYPE.test(contentType)) throw new Error('Invalid blob content type');
    const blobPath = this.#blobPath(key);
    await mkdir(dirname(blobPath), { recursive: true, mode: PRIVATE_DIR });
    const temp = await this.#writeTemp(bytes);
    try {
      await link(temp, blobPath);
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'EEXIST') {
        throw new Error(`Blob key already exists: ${key}`);
      }
      throw error;
    } finally {
      await rm(temp, { force: true });
    }
    try {
      const typePath = this.#typePath(key);
      await mkdir(dirname(typePath), { recursive: true, mode: PRIVATE_DIR });
      const typeTemp = await this.#writeTemp(contentType);
      await rename(typeTemp, typePath);
    } catch (error) {
      await rm(blobPath, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<StoredBlob | null> {
    if (!isBlobKey(key)) return null;
    let contentType: string;
    try {
      contentType = (await readFile(this.#typePath(key), 'utf8')).trim();
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    let handle;
    try {
      handle = await open(this.#blobPath(key), 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const stats = await handle.stat();
      if (stats.isFile()) {
        // The stream closes the handle when it ends, fails or is destroyed.
        return { stream: handle.createReadStream(), size: stats.size, contentType };
      }
    } catch (error) {
      await handle.close();
      throw error;
    }
    await handle.close();
    return null;
  }

  /** The type file goes first, so a half-finished delete reads as "absent". */
  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    await rm(this.#typePath(key), { force: true });
    await rm(this.#blobPath(key), { force: true });
  }

  /** The local route serves the stored type, so `contentType` needs no part in the link. */
  async signedUrl(key: string, options: SignedUrlOptions): Promise<SignedUrl> {
    const expiresAtSeconds = Math.floor(this.#now() / 1000) + options.ttlSeconds;
    return {
      url: this.#signer.sign(key, expiresAtSeconds),
      expiresAt: new Date(expiresAtSeconds * 1000),
    };
  }

  close(): void {
    // Nothing held open between calls.
  }
}
