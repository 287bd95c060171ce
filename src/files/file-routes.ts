import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendFailure } from '../kernel/http.js';
import type { BlobStore } from './blob-store.js';
import type { FileLinkSigner, LinkProblem } from './file-links.js';

export interface FileRouteOptions {
  readonly store: BlobStore;
  readonly signer: FileLinkSigner;
  /** Current time in milliseconds; tests move it. */
  readonly now?: () => number;
}

const PROBLEM_TEXT: Record<LinkProblem, string> = {
  missing: 'This file link is incomplete: it needs expires and sig',
  malformed: 'This file link is malformed',
  expired: 'This file link has expired; ask the API for a fresh view_url',
  'bad-signature': 'This file link is not valid',
};

function refuse(reply: FastifyReply, message: string, notFound = false) {
  return sendFailure(reply, {
    status: notFound ? 404 : 403,
    code: notFound ? 'NOT_FOUND' : 'FORBIDDEN',
    message,
    headers: {},
  });
}

const single = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/**
 * `GET /files/*`: serves local blobs to anyone holding a signed link (no API key;
 * the signature is the permission). The query is read by hand rather than by a
 * schema, because a missing or odd `sig` must answer 403, not a 422.
 */
export function registerFileRoutes(app: FastifyInstance, options: FileRouteOptions): void {
  const now = options.now ?? Date.now;
  app.get('/files/*', { schema: { hide: true } }, async (req, reply) => {
    // The kernel's onRequest hook sets it too; repeated here so that no answer of
    // this route, 403s included, depends on the hook being installed first.
    reply.header('x-request-id', req.id);
    const key = (req.params as Record<string, string | undefined>)['*'] ?? '';
    const query = req.query as Record<string, unknown>;
    const expires = single(query.expires);
    const nowSeconds = Math.floor(now() / 1000);
    const problem = options.signer.check(key, expires, single(query.sig), nowSeconds);
    if (problem !== null) return refuse(reply, PROBLEM_TEXT[problem]);

    const blob = await options.store.get(key);
    if (blob === null) return refuse(reply, 'File not found', true);
    return reply
      .header('content-type', blob.contentType)
      .header('content-length', String(blob.size))
      .header('cache-control', `private, max-age=${Number(expires) - nowSeconds}`)
      .header('x-content-type-options', 'nosniff')
      .send(blob.stream);
  });
}
