import type { Readable } from 'node:stream';
import { request, type Agent } from 'undici';
import { systemResolver, type Resolver } from '../../files/outbound-address.js';
import { createPinnedAgent, describeNetworkError } from '../../files/pinned-agent.js';
import { parseRetryAfter } from './schedule.js';
import { targetAddress, type TargetPolicy } from './target.js';

/** The error of an attempt cut short because this process stopped. */
export const STOPPED = 'stopped: the server shut down during the attempt';

/** How much of a receiver's answer the delivery log keeps. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/** A checked address is used this long before its host is resolved and checked again. */
const ADDRESS_TTL_MS = 60_000;

/** Connections kept open to one endpoint. */
const CONNECTIONS_PER_ENDPOINT = 8;

export interface AttemptResult {
  /** `delivered`: a 2xx; `gone`: 410 (the endpoint is disabled); else `failed`. */
  readonly outcome: 'delivered' | 'failed' | 'gone';
  readonly statusCode: number | null;
  readonly durationMs: number;
  readonly response: string | null;
  readonly error: string | null;
  /** What a `Retry-After` header asked for, in milliseconds. */
  readonly retryAfterMs: number | null;
}

export interface SenderOptions {
  readonly policy: TargetPolicy;
  readonly timeoutMs: number;
  readonly resolver?: Resolver;
  /** An extra trusted CA certificate (tests). */
  readonly ca?: string | Buffer;
  readonly now?: () => number;
}

interface PinnedConnection {
  readonly url: string;
  readonly agent: Agent;
  readonly expiresAt: number;
}

/**
 * Reads at most `limit` bytes of a body as text, then drops the rest unread. Listens
 * for its chunks rather than iterating them: most answers are one small chunk, and an
 * async iterator costs several promises for it.
 */
function excerpt(body: Readable, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error?: Error) => {
      body.off('data', take);
      body.off('end', settle);
      body.off('error', settle);
      body.on('error', () => undefined);
      body.destroy();
      if (error !== undefined) reject(error);
      else
        resolve(
          size === 0 ? null : Buffer.concat(chunks, size).subarray(0, limit).toString('utf8'),
        );
    };
    const take = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) settle();
    };
    body.on('data', take);
    body.once('end', settle);
    body.once('error', settle);
  });
}

/**
 * Sends webhook requests under the rules of the `image_url` guard: the host checked
 * (every address it resolves to) and the connection pinned to the checked address, so
 * a DNS answer that changes in between (rebinding) is never followed; no redirect is
 * followed; one deadline covers resolving, connecting, the answer and its excerpt.
 * Connections to an endpoint are kept alive for a minute, then its host is checked again.
 */
export class WebhookSender {
  readonly #options: SenderOptions;
  readonly #connections = new Map<string, PinnedConnection>();
  #closed = false;

  constructor(options: SenderOptions) {
    this.#options = options;
  }

  async #connection(endpointId: string, url: URL, signal: AbortSignal) {
    const now = (this.#options.now ?? Date.now)();
    const held = this.#connections.get(endpointId);
    if (held !== undefined && held.url === url.href && held.expiresAt > now) return held.agent;
    if (held !== undefined) this.#drop(endpointId);
    const verdict = await targetAddress(
      url,
      this.#options.policy,
      this.#options.resolver ?? systemResolver,
      signal,
    );
    if (!verdict.ok) {
      throw new RefusedTarget(
        verdict.kind === 'refused'
          ? `address refused: ${verdict.reason}`
          : `${verdict.reason} (DNS)`,
      );
    }
    const agent = createPinnedAgent(verdict.connectTo, {
      connectTimeoutMs: this.#options.timeoutMs,
      keepAlive: { connections: CONNECTIONS_PER_ENDPOINT },
      ...(this.#options.ca !== undefined ? { ca: this.#options.ca } : {}),
    });
    if (this.#closed) {
      void agent.destroy();
      throw new RefusedTarget('the sender is closed');
    }
    this.#connections.set(endpointId, { url: url.href, agent, expiresAt: now + ADDRESS_TTL_MS });
    return agent;
  }

  #drop(endpointId: string): void {
    const held = this.#connections.get(endpointId);
    if (held === undefined) return;
    this.#connections.delete(endpointId);
    held.agent.destroy().catch(() => undefined);
  }

  /** One attempt: POST `body` to the endpoint's URL with `headers`. Never throws. */
  async send(
    endpoint: { readonly id: string; readonly url: string },
    headers: Record<string, string>,
    body: string,
    abort?: AbortSignal,
  ): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    // One controller and one timer per attempt: AbortSignal.any and AbortSignal.timeout
    // cost several times as much, and a saturated server makes thousands a second.
    const deadline = new AbortController();
    const { signal } = deadline;
    const cut = () => deadline.abort();
    const timer = setTimeout(cut, this.#options.timeoutMs);
    if (abort?.aborted === true) cut();
    else abort?.addEventListener('abort', cut, { once: true });
    const failure = (error: string, statusCode: number | null = null) =>
      ({
        outcome: 'failed',
        statusCode,
        durationMs: elapsed(),
        response: null,
        error,
        retryAfterMs: null,
      }) as const;
    try {
      const url = new URL(endpoint.url);
      const agent = await this.#connection(endpoint.id, url, signal);
      const response = await request(url, {
        method: 'POST',
        dispatcher: agent,
        signal,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'user-agent': 'Vitro-Webhooks/1.0',
        },
        body,
      });
      const { statusCode } = response;
      const text = await excerpt(response.body, RESPONSE_EXCERPT_BYTES);
      const durationMs = elapsed();
      const retryAfter = response.headers['retry-after'];
      const retryAfterMs = parseRetryAfter(
        typeof retryAfter === 'string' ? retryAfter : undefined,
        (this.#options.now ?? Date.now)(),
      );
      if (statusCode >= 200 && statusCode < 300) {
        return {
          outcome: 'delivered',
          statusCode,
          durationMs,
          response: text,
          error: null,
          retryAfterMs: null,
        };
      }
      const error =
        statusCode === 410
          ? 'the endpoint answered 410 Gone'
          : statusCode >= 300 && statusCode < 400
            ? `redirected (HTTP ${statusCode}); redirects are not followed`
            : `answered HTTP ${statusCode}`;
      return {
        outcome: statusCode === 410 ? 'gone' : 'failed',
        statusCode,
        durationMs,
        response: text,
        error,
        retryAfterMs,
      };
    } catch (error) {
      this.#drop(endpoint.id);
      if (error instanceof RefusedTarget) return failure(error.message);
      if (signal.aborted) {
        return failure(
          abort?.aborted === true
            ? STOPPED
            : `no answer within ${this.#options.timeoutMs / 1000} s`,
        );
      }
      return failure(describeNetworkError(error));
    } finally {
      clearTimeout(timer);
      abort?.removeEventListener('abort', cut);
    }
  }

  /** Closes every kept connection; sends after this fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const agents = [...this.#connections.values()].map((held) => held.agent);
    this.#connections.clear();
    await Promise.all(agents.map((agent) => agent.destroy().catch(() => undefined)));
  }
}

class RefusedTarget extends Error {}
