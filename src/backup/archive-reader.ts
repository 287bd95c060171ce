import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { finished } from 'node:stream/promises';
import { Parser, type ReadEntry } from 'tar';
import { isSafePartPath, MANIFEST_PATH, parseManifest, type Manifest } from './manifest.js';
import { openArchive, type DecryptionKeys } from './encryption.js';
import { PRIVATE_DIR, PRIVATE_FILE } from './parts.js';

/** A manifest larger than this is not one Vitro wrote (100,000 files make about 15 MB). */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

/** Stops reading an archive early (the manifest is all that was wanted). */
class Enough extends Error {}

/**
 * Reads the archive's entries in order, handing each to `onEntry`, which must
 * consume it. Gzipped or not (the parser sniffs it); an encrypted archive is
 * decrypted with `keys` as it is read.
 */
async function readEntries(
  archive: string,
  keys: DecryptionKeys | null,
  onEntry: (entry: ReadEntry) => Promise<void> | void,
): Promise<void> {
  const input = await openArchive(archive, keys);
  let failure: unknown = null;
  // The parser may hand out the next entry before the last one was read: one at a time.
  let queue = Promise.resolve();
  const parser = new Parser({
    strict: true,
    // Each entry is consumed by `onEntry` at its pace (or resumed to skip it).
    noResume: true,
    // Entry sizes are checked against the manifest before anything is written.
    maxDecompressionRatio: Number.POSITIVE_INFINITY,
    onReadEntry: (entry) => {
      queue = queue.then(async () => {
        if (failure !== null) {
          entry.resume();
          return;
        }
        try {
          await onEntry(entry);
        } catch (error) {
          failure ??= error;
          entry.resume();
          input.destroy();
        }
      });
    },
  });
  await new Promise<void>((resolve) => {
    parser.on('error', (error: unknown) => {
      failure ??= error;
      resolve();
    });
    parser.on('end', () => resolve());
    input.on('error', (error) => {
      failure ??= error;
      resolve();
    });
    input.on('close', () => {
      if (failure !== null) resolve();
    });
    input.pipe(parser);
  });
  await queue;
  if (failure === null || failure instanceof Enough) return;
  throw failure instanceof Error ? failure : new Error('the archive could not be read');
}

async function readText(entry: ReadEntry, limit: number): Promise<string> {
  if (entry.size > limit) throw new Error(`${entry.path} is too large (${entry.size} bytes)`);
  const chunks: Buffer[] = [];
  for await (const chunk of entry) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const notABackup = (archive: string, why: string) =>
  new Error(`${archive} is not a Vitro backup archive (${why})`);

/** The manifest of an archive: its first entry, read without going further. */
export async function readManifest(
  archive: string,
  keys: DecryptionKeys | null = null,
): Promise<Manifest> {
  let manifest: Manifest | null = null;
  try {
    await readEntries(archive, keys, async (entry) => {
      if (entry.path !== MANIFEST_PATH || !FILE_TYPES.has(entry.type)) {
        throw notABackup(archive, `its first entry is ${entry.path}, not ${MANIFEST_PATH}`);
      }
      manifest = parseManifest(await readText(entry, MAX_MANIFEST_BYTES));
      throw new Enough();
    });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') throw new Error(`${archive} does not exist`);
    if (typeof code === 'string' && code.startsWith('TAR_')) {
      throw notABackup(archive, (error as Error).message);
    }
    throw error;
  }
  if (manifest === null) throw notABackup(archive, `it has no ${MANIFEST_PATH}`);
  return manifest;
}

/**
 * Extracts every part of the archive into `into`, computing each one's SHA-256
 * on the way, and checks them against the manifest: each part listed once, with
 * its size and checksum, and nothing else. Any difference throws, naming the
 * part; the caller then removes `into`, so nothing half-checked is ever used.
 */
export async function extractVerified(
  archive: string,
  manifest: Manifest,
  into: string,
  onPart?: (done: number, total: number) => void,
  keys: DecryptionKeys | null = null,
): Promise<void> {
  const expected = new Map(manifest.parts.map((part) => [part.path, part]));
  const seen = new Set<string>();
  let first = true;
  const damaged = (what: string) =>
    new Error(`${archive} is damaged: ${what}; nothing was restored`);
  await readEntries(archive, keys, async (entry) => {
    if (first) {
      first = false;
      await readText(entry, MAX_MANIFEST_BYTES);
      return;
    }
    if (entry.type === 'Directory') {
      entry.resume();
      return;
    }
    const part = expected.get(entry.path);
    if (!FILE_TYPES.has(entry.type) || part === undefined || !isSafePartPath(entry.path)) {
      throw damaged(`${entry.path} is not listed in the manifest`);
    }
    if (seen.has(entry.path)) throw damaged(`${entry.path} appears twice`);
    seen.add(entry.path);
    if (entry.size !== part.bytes) {
      throw damaged(`${entry.path} holds ${entry.size} bytes, the manifest says ${part.bytes}`);
    }
    const target = join(into, entry.path);
    await mkdir(dirname(target), { recursive: true, mode: PRIVATE_DIR });
    const out = createWriteStream(target, { flags: 'wx', mode: PRIVATE_FILE });
    const hash = createHash('sha256');
    for await (const chunk of entry) {
      hash.update(chunk);
      if (!out.write(chunk))
        await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
    out.end();
    await finished(out);
    if (hash.digest('hex') !== part.sha256) throw damaged(`${entry.path} fails its checksum`);
    onPart?.(seen.size, expected.size);
  });
  const missing = manifest.parts.filter((part) => !seen.has(part.path));
  if (missing.length > 0) {
    throw damaged(
      `${missing.length} part(s) listed in the manifest are missing, e.g. ${missing[0]!.path}`,
    );
  }
}
