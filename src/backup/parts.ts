import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, link, lstat, mkdir, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BackupPart } from './manifest.js';

/** Files and folders are created readable by their owner only. */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;

/** The SHA-256 (hex) and size of a file, read once. */
export async function digestFile(path: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    const buffer = chunk as Buffer;
    bytes += buffer.length;
    hash.update(buffer);
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** The parts of the archive, in order, with their checksums (`root` holds them). */
export async function describeParts(root: string, paths: readonly string[]): Promise<BackupPart[]> {
  const parts: BackupPart[] = [];
  for (const path of paths) parts.push({ path, ...(await digestFile(join(root, path))) });
  return parts;
}

const isCode = (error: unknown, ...codes: string[]) =>
  codes.includes(String((error as { code?: unknown }).code));

/**
 * Every regular file under `root` (relative `/` paths, sorted), skipping the
 * top-level entries `skip` names (the file store's writes in progress, the
 * staging folder of this very backup).
 */
export async function listFiles(root: string, skip: (name: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, prefix: string) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isCode(error, 'ENOENT')) return;
      throw error;
    }
    for (const entry of entries) {
      if (prefix === '' && skip(entry.name)) continue;
      const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) await walk(join(dir, entry.name), relative);
      else if (entry.isFile()) found.push(relative);
    }
  };
  await walk(root, '');
  return found.sort();
}

/**
 * Freezes the files `paths` of `from` under `to`: hard links, so no byte is
 * copied and a file removed from the store meanwhile stays in the backup (a copy
 * where links are impossible, e.g. another file system). A file gone before it
 * could be linked (the store removed a photo whose write failed) is left out;
 * the frozen paths come back.
 */
export async function freezeFiles(
  from: string,
  to: string,
  paths: readonly string[],
  onFile?: (done: number) => void,
): Promise<string[]> {
  const frozen: string[] = [];
  let linking = true;
  for (const path of paths) {
    const target = join(to, path);
    await mkdir(dirname(target), { recursive: true, mode: PRIVATE_DIR });
    try {
      if (linking) {
        try {
          await link(join(from, path), target);
        } catch (error) {
          if (!isCode(error, 'EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK')) throw error;
          linking = false;
          await copyFile(join(from, path), target);
        }
      } else {
        await copyFile(join(from, path), target);
      }
      frozen.push(path);
    } catch (error) {
      if (!isCode(error, 'ENOENT')) throw error;
    }
    onFile?.(frozen.length);
  }
  return frozen;
}

/** Whether a path exists (any kind of entry). */
export async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if (isCode(error, 'ENOENT', 'ENOTDIR')) return false;
    throw error;
  }
}
