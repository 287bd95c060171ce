import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { SECRET_PREFIXES } from '../../kernel/credentials.js';
import { memo } from '../../lib/memo.js';

const SECRET_PREFIX = SECRET_PREFIXES.webhookSigningSecret;

/** A new signing secret: `whsec_` and 32 random bytes in base64, as Standard Webhooks spells it. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** Keys of the secrets in use, decoded once: an endpoint signs thousands of messages a minute. */
const keyOf = memo(1000, (secret: string): KeyObject =>
  createSecretKey(Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')),
);

/** `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the secret's key. */
export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const digest = createHmac('sha256', keyOf(secret))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest();
  return `v1,${digest.toString('base64')}`;
}

/**
 * The three Standard Webhooks 1.0 headers of one attempt. Every secret in force signs
 * (the new and the old one for a day after a rotation); a receiver accepts the message
 * when any signature verifies with the secret it holds.
 */
export function signedHeaders(
  id: string,
  timestampSeconds: number,
  body: string,
  secrets: readonly string[],
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets
      .map((secret) => sign(secret, id, timestampSeconds, body))
      .join(' '),
  };
}
