import type { Readable } from 'node:stream';
import { request } from 'undici';
import { AppError, errors } from '../kernel/errors.js';
import { parseCidrs } from './address-policy.js';
import { outboundAddress, systemResolver, type Resolver } from './outbound-address.js';
import { createPinnedAgent, describeNetworkError } from './pinned-agent.js';

export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const IMAGE_FETCH_DEADLINE_MS = 10_000;

export type { Resolver };

export interface FetchImageOptions {
  /** CIDRs that may be reached although private (VITRO_ALLOWED_PRIVATE_ADDRESSES). */
  readonly allowedPrivate?: readonly string[];
  /** Default: the system resolver, every address (`dns.lookup` with `all`). */
  readonly resolver?: Resolver;
  /** One deadline for resolving, connecting, headers and body. Default 10 s. */
  readonly deadlineMs?: number;
  /** Default 10 MB. */
  readonly maxBytes?: number;
  /** An extra trusted CA certificate. Tests only: production trusts the system roots. */
  readonly ca?: string | Buffer;
  /**
   * Called as bytes arrive (e.g. to renew an idempotency lease on a slow download).
   * An AppError thrown from it aborts the download and reaches the caller unchanged.
   */
  readonly onProgress?: (receivedBytes: number) => void;
}

export interface FetchedImage {
  readonly bytes: Buffer;
  /** The Content-Type the server sent; informational only, never trusted for the type. */
  readonly declaredType: string | null;
}

const fetchFailed = (message: string) => new AppError('IMAGE_URL_FETCH_FAILED', message);

function httpsUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw errors.validation('image_url is not a valid URL');
  }
  if (url.protocol !== 'https:') throw errors.validation('image_url must be an https address');
  if (url.username !== '' || url.password !== '') {
    throw errors.validation('image_url must not contain a user name or password');
  }
  return url;
}

/** Drops a body unread; undici reports the abort as an error event, expected here. */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

/**
 * The address to connect to, after checking that every address the host has is
 * public (or explicitly allowed). One private answer refuses the whole host: the
 * caller cannot choose which address a later connection would get.
 */
async function checkedAddress(url: URL, options: FetchImageOptions, signal: AbortSignal) {
  const verdict = await outboundAddress(url.hostname, {
    allowed: parseCidrs(options.allowedPrivate ?? []),
    resolver: options.resolver ?? systemResolver,
    signal,
  });
  if (verdict.ok) return verdict.connectTo;
  if (verdict.kind === 'refused') {
    throw errors.validation(`image_url must be a public address; ${verdict.reason}`);
  }
  throw fetchFailed(`image_url ${verdict.reason}`);
}

/**
 * Downloads `image_url` under the rules of DESIGN §9: https only, every resolved
 * address public, the connection pinned to the checked address, no redirects,
 * one total deadline, and a byte cap counted on the wire (Content-Length is only
 * used to refuse early). Errors are AppErrors whose text says which rule refused.
 */
export async function fetchImage(
  rawUrl: string,
  options: FetchImageOptions = {},
): Promise<FetchedImage> {
  const url = httpsUrl(rawUrl);
  const deadlineMs = options.deadlineMs ?? IMAGE_FETCH_DEADLINE_MS;
  const maxBytes = options.maxBytes ?? IMAGE_MAX_BYTES;
  const tooLarge = () =>
    errors.payloadTooLarge(`The image at image_url is larger than ${maxBytes / 1024 / 1024} MB`);
  const signal = AbortSignal.timeout(deadlineMs);
  let agent: ReturnType<typeof createPinnedAgent> | null = null;
  try {
    const address = await checkedAddress(url, options, signal);
    agent = createPinnedAgent(address, {
      connectTimeoutMs: deadlineMs,
      ...(options.ca !== undefined ? { ca: options.ca } : {}),
    });
    const response = await request(url, {
      method: 'GET',
      dispatcher: agent,
      signal,
      headers: { accept: 'image/jpeg, image/png, image/webp, image/gif' },
    });
    const { statusCode, headers, body } = response;
    if (statusCode < 200 || statusCode > 299) {
      discard(body);
      if (statusCode >= 300 && statusCode < 400) {
        throw fetchFailed(`image_url redirected (HTTP ${statusCode}); redirects are not followed`);
      }
      throw fetchFailed(`image_url answered with HTTP ${statusCode}`);
    }
    if (Number(headers['content-length'] ?? 0) > maxBytes) {
      discard(body);
      throw tooLarge();
    }
    // Chunks are kept as they come and joined once, so the image is never held twice over.
    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of body) {
      const bytes = chunk as Buffer;
      received += bytes.length;
      if (received > maxBytes) throw tooLarge();
      chunks.push(bytes);
      options.onProgress?.(received);
    }
    const declared = headers['content-type'];
    return {
      bytes: Buffer.concat(chunks, received),
      declaredType: typeof declared === 'string' ? declared : null,
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (signal.aborted) {
      throw fetchFailed(`image_url took longer than ${deadlineMs / 1000} seconds to download`);
    }
    throw fetchFailed(`image_url could not be downloaded: ${describeNetworkError(error)}`);
  } finally {
    await agent?.destroy();
  }
}
