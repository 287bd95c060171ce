import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { Duplex, PassThrough, Readable } from 'node:stream';
import type { BackupEncryption } from '../config.js';

/*
 * Encrypted archives, in the age format (age-encryption.org/v1) by its maintained
 * TypeScript implementation: to a passphrase (scrypt) or to one or more recipient
 * keys (`age1…`, whose identities `AGE-SECRET-KEY-1…` decrypt). Any age tool reads
 * them (`age -d`); nothing here is home-made cryptography.
 */

/** The first bytes of every binary age file. */
const AGE_HEADER = 'age-encryption.org/v1\n';

/** The name an encrypted archive gets: the plain one with `.age` after it. */
export const ENCRYPTED_SUFFIX = '.age';

/** What decrypts an archive: passphrases and identities, each tried. */
export interface DecryptionKeys {
  readonly passphrases: readonly string[];
  readonly identities: readonly string[];
}

/** Loaded only when an archive is encrypted or decrypted. */
const loadAge = () => import('age-encryption');

/** A stream that encrypts for `key` what is written to it, as it streams. */
export async function encryptingStream(key: BackupEncryption): Promise<Duplex> {
  const age = await loadAge();
  const encrypter = new age.Encrypter();
  if (key.kind === 'passphrase') encrypter.setPassphrase(key.passphrase);
  else for (const recipient of key.recipients) encrypter.addRecipient(recipient);
  const plain = new PassThrough();
  const web = Readable.toWeb(plain) as unknown as ReadableStream<Uint8Array>;
  const encrypted = await encrypter.encrypt(web);
  return Duplex.from({
    writable: plain,
    readable: Readable.fromWeb(encrypted),
  });
}

/** Whether the file is an age file (by its first bytes). */
export async function isEncryptedArchive(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(AGE_HEADER.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead).toString('latin1') === AGE_HEADER;
  } finally {
    await handle.close();
  }
}

/**
 * The plain bytes of an archive, encrypted or not. An encrypted one needs a key:
 * without one, or with none that fits, it throws saying what to give.
 */
export async function openArchive(path: string, keys: DecryptionKeys | null): Promise<Readable> {
  if (!(await isEncryptedArchive(path))) return createReadStream(path);
  if (keys === null || (keys.passphrases.length === 0 && keys.identities.length === 0)) {
    throw new Error(
      `${path} is encrypted (age): give the passphrase (--passphrase-file FILE, or ` +
        'BACKUP_PASSPHRASE_FILE) or the identity of a recipient (--identity-file FILE)',
    );
  }
  const age = await loadAge();
  const decrypter = new age.Decrypter();
  for (const passphrase of keys.passphrases) decrypter.addPassphrase(passphrase);
  for (const identity of keys.identities) decrypter.addIdentity(identity);
  const input = Readable.toWeb(createReadStream(path)) as unknown as ReadableStream<Uint8Array>;
  let plain: ReadableStream<Uint8Array>;
  try {
    plain = await decrypter.decrypt(input);
  } catch (error) {
    throw new Error(
      `${path} cannot be decrypted with the passphrase or identity given ` +
        `(${error instanceof Error ? error.message : String(error)}); nothing was restored`,
    );
  }
  return Readable.fromWeb(plain);
}

/**
 * The identities of an age identity file, as `age-keygen` writes it: one
 * `AGE-SECRET-KEY-…` per line, `#` comments and blank lines ignored.
 */
export async function readIdentityFile(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new Error(`--identity-file: cannot read ${path} (${String(code ?? error)})`);
  }
  const identities = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  if (identities.length === 0 || !identities.every((line) => line.startsWith('AGE-SECRET-KEY-'))) {
    throw new Error(
      `--identity-file: ${path} is not an age identity file (lines of AGE-SECRET-KEY-…, as ` +
        'age-keygen writes)',
    );
  }
  return identities;
}
