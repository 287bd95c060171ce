import { lookup } from 'node:dns/promises';
import { checkAddress, parseAddress, type parseCidrs } from './address-policy.js';

/** Every address a host name resolves to. */
export type Resolver = (hostname: string) => Promise<readonly string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true })).map((entry) => entry.address);

const NOT_FOUND_CODES = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

/** Where an outbound connection may go, or why it may not. */
export type OutboundVerdict =
  | { readonly ok: true; readonly connectTo: string }
  | {
      readonly ok: false;
      /** `refused`: the policy says no; `not_found`/`unresolvable`: DNS said nothing usable. */
      readonly kind: 'refused' | 'not_found' | 'unresolvable';
      /** For `refused`: which address and rule, with the host name when one was resolved. */
      readonly reason: string;
    };

/** Rejects with the signal's reason once it aborts; DNS lookups cannot be cancelled. */
export function beforeDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * The one address an outbound request may connect to: the URL's literal address,
 * or the first address its host resolves to, after checking that **every** address
 * the host has is public (or inside `allowed`). One refused answer refuses the host:
 * the caller cannot choose which address a later connection would get, so the
 * connection is then pinned to the checked address (pinned-agent.ts). Used by the
 * `image_url` download and by webhook deliveries.
 */
export async function outboundAddress(
  hostname: string,
  options: {
    readonly allowed: ReturnType<typeof parseCidrs>;
    readonly resolver: Resolver;
    readonly signal: AbortSignal;
  },
): Promise<OutboundVerdict> {
  const literal = parseAddress(hostname) !== null;
  let addresses: readonly string[];
  if (literal) {
    addresses = [hostname];
  } else {
    try {
      addresses = await beforeDeadline(options.resolver(hostname), options.signal);
    } catch (error) {
      if (options.signal.aborted) throw error;
      const code = error instanceof Error && 'code' in error ? String(error.code) : '';
      return {
        ok: false,
        kind: NOT_FOUND_CODES.has(code) ? 'not_found' : 'unresolvable',
        reason: `host ${hostname} ${NOT_FOUND_CODES.has(code) ? 'was not found' : 'could not be resolved'}`,
      };
    }
  }
  if (addresses.length === 0) {
    return { ok: false, kind: 'not_found', reason: `host ${hostname} was not found` };
  }
  const verdicts = addresses.map((address) => checkAddress(address, options.allowed));
  for (const verdict of verdicts) {
    if (verdict.allowed) continue;
    const host = literal ? '' : `host ${hostname} resolves to a refused address: `;
    return { ok: false, kind: 'refused', reason: `${host}${verdict.reason}` };
  }
  const first = verdicts[0];
  if (first?.allowed !== true) {
    return { ok: false, kind: 'not_found', reason: `host ${hostname} was not found` };
  }
  return { ok: true, connectTo: first.connectTo };
}
