import type { FastifyRequest } from 'fastify';
import { SECRET_PREFIXES } from './credentials.js';

/**
 * Query parameters whose value is a credential, compared case-insensitively.
 * Vitro reads keys only from `Authorization`, but clients written for other APIs
 * send them in the query string, and the request log must not keep them.
 */
const SECRET_PARAMS: ReadonlySet<string> = new Set([
  'api_key',
  'apikey',
  'api-key',
  'key',
  'token',
  'access_token',
  'accesstoken',
  'auth',
  'authorization',
  'bearer',
  'device_token',
  'secret',
  'password',
  'sig',
  'signature',
]);

/**
 * Anything holding a Vitro secret (a key, device token, sign-in link, session or
 * webhook signing secret: every prefix of `SECRET_PREFIXES`), wherever it appears.
 */
const CREDENTIAL = new RegExp(
  Object.values(SECRET_PREFIXES)
    .map((prefix) => prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
  'i',
);

/** How much of a cursor the log keeps: enough to tell two apart, not a replayable one. */
const CURSOR_KEEP = 12;

export const REDACTED = '[REDACTED]';

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function redactParam(part: string): string {
  const equals = part.indexOf('=');
  const rawName = equals < 0 ? part : part.slice(0, equals);
  const rawValue = equals < 0 ? '' : part.slice(equals + 1);
  const name = decode(rawName).trim().toLowerCase();
  // A secret sent as a parameter's name (`?xpk_live_…`) goes whole.
  if (CREDENTIAL.test(decode(rawName))) return REDACTED;
  if (SECRET_PARAMS.has(name)) return `${rawName}=${REDACTED}`;
  if (CREDENTIAL.test(decode(rawValue))) return `${rawName}=${REDACTED}`;
  if (name === 'cursor' && rawValue.length > CURSOR_KEEP) {
    return `${rawName}=${rawValue.slice(0, CURSOR_KEEP)}…`;
  }
  return part;
}

/**
 * A request URL fit for the log: the value of every credential-like query
 * parameter (api_key, key, token, access_token, … in any case or encoding) and
 * of any parameter or path segment holding a Vitro secret (by its prefix) is
 * replaced by [REDACTED]; a `cursor` is cut to its first characters.
 */
export function redactUrl(url: string): string {
  const question = url.indexOf('?');
  const path = question < 0 ? url : url.slice(0, question);
  const safePath = path
    .split('/')
    .map((segment) => (CREDENTIAL.test(decode(segment)) ? REDACTED : segment))
    .join('/');
  if (question < 0) return safePath;
  const query = url
    .slice(question + 1)
    .split(/([&;])/)
    .map((part, i) => (i % 2 === 1 || part === '' ? part : redactParam(part)))
    .join('');
  return `${safePath}?${query}`;
}

/** pino serializer of `req` (Fastify's default fields) with the URL redacted. */
export function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
