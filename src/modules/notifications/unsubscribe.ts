import { createHmac, timingSafeEqual } from 'node:crypto';
import { isUuid } from '../../kernel/ids.js';

/**
 * The unsubscribe link of a person's emails: `/unsubscribe?t={member id}.{sig}`,
 * sig = HMAC-SHA256 of the member id under a key derived from the server secret
 * with its own prefix (a file link or a cursor never passes for one). It needs no
 * sign-in and does not expire: an old email's link still works.
 */
export class UnsubscribeLinks {
  readonly #key: Buffer;
  readonly #publicUrl: string;

  constructor(secret: string, publicUrl: string) {
    this.#key = createHmac('sha256', secret).update('vitro-notifications:unsubscribe').digest();
    this.#publicUrl = publicUrl.replace(/\/+$/, '');
  }

  #signature(memberId: string): string {
    return createHmac('sha256', this.#key).update(`unsubscribe\n${memberId}`).digest('base64url');
  }

  token(memberId: string): string {
    return `${memberId}.${this.#signature(memberId)}`;
  }

  link(memberId: string): string {
    return `${this.#publicUrl}/unsubscribe?t=${this.token(memberId)}`;
  }

  /** The member a token names, or null when it is not one this server signed. */
  memberOf(token: string | undefined): string | null {
    if (token === undefined) return null;
    const [memberId, sig, ...rest] = token.split('.');
    if (memberId === undefined || sig === undefined || rest.length > 0 || !isUuid(memberId)) {
      return null;
    }
    const expected = Buffer.from(this.#signature(memberId.toLowerCase()));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return memberId.toLowerCase();
  }
}
