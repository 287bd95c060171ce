import type { Agent, Dispatcher } from 'undici';
import { systemResolver, type Resolver } from '../../../files/outbound-address.js';
import { createPinnedAgent, describeNetworkError } from '../../../files/pinned-agent.js';
import { parseRetryAfter } from './schedule.js';
import { targetAddress, type TargetPolicy } from '../target.js';

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
 * Cuts an attempt short, at its deadline or when the process stops: whatever the attempt
 * is doing then (resolving its host, or its request) is told through `onCut`.
 */
class Cut {
  reason: 'deadline' | 'stopped' | null = null;
  #hook: (() => void) | null = null;

  readonly deadline = () => this.#fire('deadline');
  readonly stopped = () => this.#fire('stopped');

  #fire(reason: 'deadline' | 'stopped'): void {
    if (this.reason !== null) return;
    this.reason = reason;
    this.#hook?.();
  }

  /** What cuts the attempt's current step; at once if the attempt is already cut. */
  onCut(hook: () => void): void {
    this.#hook = hook;
    if (this.reason !== null) hook();
  }
}

interface Answer {
  readonly statusCode: number;
  readonly retryAfter: string | undefined;
  /** The answer's first bytes as text, null when it had none. */
  readonly excerpt: string | null;
}

/** The reason a request is ended once its excerpt is read. */
const ENOUGH = new Error('the excerpt is read');

/**
 * POSTs `body` on one of `agent`'s kept connections through undici's dispatch API, and
 * answers the status, the `Retry-After`, and the first `limit` bytes of the answer as
 * text; the rest is dropped unread (and the connection with it). `request()` costs
 * twice the CPU per attempt, most of it in the stream and promises it makes for the
 * answer, and a saturated server makes thousands of attempts a second.
 */
function post(
  agent: Agent,
  url: URL,
  headers: Record<string, string>,
  body: string,
  limit: number,
  cut: Cut,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let statusCode = 0;
    let retryAfter: string | undefined;
    const answer = (): Answer => ({
      statusCode,
      retryAfter,
      excerpt: size === 0 ? null : Buffer.concat(chunks, size).subarray(0, limit).toString('utf8'),
    });
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(controller) {
        cut.onCut(() => controller.abort(new Error('cut short')));
      },
      onResponseStart(_controller, code, answerHeaders) {
        statusCode = code;
        const value = answerHeaders['retry-after'];
        retryAfter = typeof value === 'string' ? value : undefined;
      },
      onResponseData(controller, chunk) {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= limit) controller.abort(ENOUGH);
      },
      onResponseEnd() {
        resolve(answer());
      },
      onResponseError(_controller, error) {
        if (error === ENOUGH) resolve(answer());
        else reject(error);
      },
    };
    agent.dispatch(
      { origin: url.origin, path: url.pathname + url.search, method: 'POST', headers, body },
      handler,
    );
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

  async #connection(endpointId: string, url: URL, cut: Cut) {
    const now = (this.#options.now ?? Date.now)();
    const held = this.#connections.get(endpointId);
    if (held !== undefined && held.url === url.href && held.expiresAt > now) return held.agent;
    if (held !== undefined) this.#drop(endpointId);
    const lookup = new AbortController();
    cut.onCut(() => lookup.abort());
    const verdict = await targetAddress(
      url,
      this.#options.policy,
      this.#options.resolver ?? systemResolver,
      lookup.signal,
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
    // One timer per attempt, and no AbortController unless the host must be resolved:
    // a saturated server makes thousands of attempts a second.
    const cut = new Cut();
    const timer = setTimeout(cut.deadline, this.#options.timeoutMs);
    if (abort?.aborted === true) cut.stopped();
    else abort?.addEventListener('abort', cut.stopped, { once: true });
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
      const agent = await this.#connection(endpoint.id, url, cut);
      const answer = await post(
        agent,
        url,
        { ...headers, 'content-type': 'application/json', 'user-agent': 'Vitro-Webhooks/1.0' },
        body,
        RESPONSE_EXCERPT_BYTES,
        cut,
      );
      const { statusCode } = answer;
      const durationMs = elapsed();
      const retryAfterMs = parseRetryAfter(answer.retryAfter, (this.#options.now ?? Date.now)());
      if (statusCode >= 200 && statusCode < 300) {
        return {
          outcome: 'delivered',
          statusCode,
          durationMs,
          response: answer.excerpt,
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
        response: answer.excerpt,
        error,
        retryAfterMs,
      };
    } catch (error) {
      this.#drop(endpoint.id);
      if (error instanceof RefusedTarget) return failure(error.message);
      if (cut.reason !== null) {
        return failure(
          cut.reason === 'stopped'
            ? STOPPED
            : `no answer within ${this.#options.timeoutMs / 1000} s`,
        );
      }
      return failure(describeNetworkError(error));
    } finally {
      clearTimeout(timer);
      abort?.removeEventListener('abort', cut.stopped);
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
