import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Db } from '../db/database.js';

/**
 * API keys and device tokens: `xpk_live_` / `xpk_dev_` / `xpd_live_` / `xpd_dev_`,
 * then 32 random base62 characters (≥190 bits), then a 6-character base62 CRC32
 * of everything before it. The checksum lets a mistyped or truncated credential be
 * refused without a database read; only the SHA-256 digest is ever stored.
 */

/**
 * The prefix of every kind of secret Vitro hands out. The request log redacts any
 * value holding one (`log-redaction.ts`), so a new kind of secret takes its prefix
 * from here.
 */
export const SECRET_PREFIXES = {
  apiKey: 'xpk_',
  deviceToken: 'xpd_',
  signInLink: 'vsl_',
  session: 'vss_',
  webhookSigningSecret: 'whsec_',
} as const;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const SHAPE = /^(xpk|xpd)_(live|dev)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

export type CredentialKind = 'key' | 'device';
export type Environment = 'production' | 'development';

export interface ParsedCredential {
  kind: CredentialKind;
  environment: Environment;
  hash: string;
  /** Shown in listings: the type prefix and the first four characters of the secret. */
  displayPrefix: string;
}

/**
 * How authentication reads one kind of credential (API keys, device tokens) from the
 * module that owns it: the row by the SHA-256 of the presented secret, with what
 * the principal is built from, and a stamp of its last use.
 */
export interface CredentialLookup<Row> {
  find(db: Db, hash: string): Promise<Row | undefined>;
  recordUse(db: Db, id: string, at: string): Promise<void>;
}

function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = BASE62[rest % 62]! + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

function checksum(text: string): string {
  return base62(crc32(text), CHECKSUM_LENGTH);
}

function typePrefix(kind: CredentialKind, environment: Environment): string {
  const type = kind === 'key' ? SECRET_PREFIXES.apiKey : SECRET_PREFIXES.deviceToken;
  return `${type}${environment === 'production' ? 'live' : 'dev'}_`;
}

export function hashCredential(credential: string): string {
  return createHash('sha256').update(credential).digest('hex');
}

export function generateCredential(
  kind: CredentialKind,
  environment: Environment,
): { secret: string; hash: string; displayPrefix: string } {
  let body = '';
  for (let i = 0; i < BODY_LENGTH; i++) body += BASE62[randomInt(62)]!;
  const head = typePrefix(kind, environment) + body;
  const secret = head + checksum(head);
  return { secret, hash: hashCredential(secret), displayPrefix: displayPrefixOf(head) };
}

function displayPrefixOf(head: string): string {
  const prefixLength = head.indexOf('_', 4) + 1;
  return head.slice(0, prefixLength + 4);
}

/** Parses and checks a presented credential; null when malformed or the checksum is wrong. */
export function parseCredential(presented: string): ParsedCredential | null {
  const match = SHAPE.exec(presented);
  if (!match) return null;
  const [, type, env, body, sum] = match as unknown as [string, string, string, string, string];
  const head = `${type}_${env}_${body}`;
  if (checksum(head) !== sum) return null;
  return {
    kind: type === 'xpk' ? 'key' : 'device',
    environment: env === 'live' ? 'production' : 'development',
    hash: hashCredential(presented),
    displayPrefix: displayPrefixOf(head),
  };
}
