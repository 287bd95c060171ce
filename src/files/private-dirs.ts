import { chmod, stat } from 'node:fs/promises';

/**
 * Takes group and other permissions off a folder of the server's own (the data
 * directory, the file store) that an older version created open (0755): what it
 * holds is the lab's. A folder that is not there, or not ours to change, is left
 * as it is; the doctor reports it.
 */
export async function tightenPrivateDirectory(path: string): Promise<void> {
  try {
    const { mode } = await stat(path);
    if ((mode & 0o077) !== 0) await chmod(path, mode & 0o700);
  } catch {
    // Missing or not ours: nothing to tighten here.
  }
}
