import { createHmac, timingSafeEqual } from 'node:crypto';
import { assertBlobKey } from './blob-key.js';

/** Why a link was refused; the route turns every one into the same 403. */
export type LinkProblem = 'missing' | 'malformed' | 'expired' | 'bad-signature';

const EXPIRES = /^\d{1,12}$/;

/**
 * Signs and checks local file links: `/files/{key}?expires={unix seconds}&sig=…`
 * where sig = HMAC-SHA256 over key and expiry. The HMAC key is derived from the
 * server secret with its own prefix, so a file link can never pass for a cursor
 * MAC (src/kernel/paging.ts) or the other way round.
 */
export class FileLinkSigner {
  readonly #key: Buffer;
  readonly #publicUrl: string;

  constructor(secret: string, publicUrl: string) {
    this.#key = createHmac('sha256', secret).update('vitro-files:link-key').digest();
    this.#publicUrl = publicUrl.replace(/\/+$/, '');
  }

  #signature(key: string, expires: string): string {
    return createHmac('sha256', this.#key).update(`${key}\n${expires}`).digest('base64url');
  }

  /** The absolute link to a blob, valid until `expiresAtSeconds` (unix seconds). */
  sign(key: string, expiresAtSeconds: number): string {
    assertBlobKey(key);
    const expires = String(Math.floor(expiresAtSeconds));
    const sig = this.#signature(key, expires);
    return `${this.#publicUrl}/files/${key}?expires=${expires}&sig=${sig}`;
  }

  /** Null when the link is good at `nowSeconds`, else what is wrong with it. */
  check(
    key: string,
    expires: string | undefined,
    sig: string | undefined,
    nowSeconds: number,
  ): LinkProblem | null {
    if (expires === undefined || sig === undefined) return 'missing';
    if (!EXPIRES.test(expires)) return 'malformed';
    // Compared as text of equal length in constant time; the length itself is public.
    const expected = Buffer.from(this.#signature(key, expires));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return 'bad-signature';
    }
    return Number(expires) <= nowSeconds ? 'expired' : null;
  }
}
