import { isIPv6, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Agent } from 'undici';

/**
 * A name lookup that answers every question with the one address already checked.
 * Node calls it instead of DNS, so the socket can only go where the check allowed:
 * a second lookup that now answers a private address (DNS rebinding) never happens.
 */
function pinnedLookup(address: string): LookupFunction {
  const family = isIPv6(address) ? 6 : 4;
  return (_hostname, options, callback) => {
    if (options.all === true) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

export interface PinnedAgentOptions {
  /** Connect timeout; the caller's total deadline still applies on top. */
  readonly connectTimeoutMs: number;
  /** An extra trusted CA next to the system roots: tests only. */
  readonly ca?: string | Buffer;
  /**
   * Connections kept open to the address and reused (webhook deliveries); default
   * one request per agent, nothing kept alive (a download).
   */
  readonly keepAlive?: { readonly connections: number };
}

/**
 * An undici Agent that connects only to `address`. The URL's
 * host name stays the TLS server name, so SNI and certificate checks are made
 * against the name the caller gave, not against the address.
 */
export function createPinnedAgent(address: string, options: PinnedAgentOptions): Agent {
  return new Agent({
    connect: {
      lookup: pinnedLookup(address),
      timeout: options.connectTimeoutMs,
      rejectUnauthorized: true,
      ...(options.ca !== undefined ? { ca: [...rootCertificates, options.ca] } : {}),
    },
    ...(options.keepAlive === undefined
      ? // One request per agent; nothing to keep alive or pipeline.
        { pipelining: 0, connections: 1 }
      : { pipelining: 1, connections: options.keepAlive.connections }),
  });
}

const TLS_CERT_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** A short, internals-free description of why a connection or download failed. */
export function describeNetworkError(error: unknown): string {
  const code =
    error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (TLS_CERT_CODES.has(code)) return 'its TLS certificate could not be verified';
  if (code.startsWith('ERR_SSL') || code === 'EPROTO') return 'the TLS handshake failed';
  switch (code) {
    case 'ECONNREFUSED':
      return 'the connection was refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was closed unexpectedly';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'the connection timed out';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host is unreachable';
    default:
      return 'the connection failed';
  }
}
