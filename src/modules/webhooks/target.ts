import type { WebhookConfig } from '../../config.js';
import { checkAddress, inRanges, parseAddress, parseCidrs } from '../../files/address-policy.js';
import {
  beforeDeadline,
  outboundAddress,
  type OutboundVerdict,
  type Resolver,
} from '../../files/outbound-address.js';
import { errors } from '../../kernel/errors.js';

/** Where webhooks may connect: public addresses, plus what WEBHOOK_ALLOWED_HOSTS names. */
export interface TargetPolicy {
  /** Host names (lower case), `*.domain` for every name under a domain. */
  readonly hosts: readonly string[];
  readonly ranges: ReturnType<typeof parseCidrs>;
}

export function targetPolicy(
  config: Pick<WebhookConfig, 'allowedHosts' | 'allowedRanges'>,
): TargetPolicy {
  return { hosts: config.allowedHosts, ranges: parseCidrs(config.allowedRanges) };
}

/** Whether the configuration names this host (exactly, or under a `*.` domain). */
export function namedHost(hostname: string, policy: TargetPolicy): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return policy.hosts.some((allowed) =>
    allowed.startsWith('*.') ? host.endsWith(allowed.slice(1)) : host === allowed,
  );
}

/** Whether plain http may be used: only to a host or range the configuration allows. */
function httpAllowed(hostname: string, policy: TargetPolicy): boolean {
  return namedHost(hostname, policy) || inRanges(hostname, policy.ranges);
}

/**
 * Checks a webhook URL when it is set: an https URL (http only to an allowed host or
 * range), without user name or password, whose host, when it is an address, is one
 * webhooks may reach. A host name is resolved and checked again on every delivery.
 */
export function checkTargetUrl(raw: string, policy: TargetPolicy): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw errors.validation('url: is not a valid URL');
  }
  if (url.protocol === 'http:') {
    if (!httpAllowed(url.hostname, policy)) {
      throw errors.validation(
        'url: must be an https address (plain http only to a host WEBHOOK_ALLOWED_HOSTS names)',
      );
    }
  } else if (url.protocol !== 'https:') {
    throw errors.validation('url: must be an https address');
  }
  if (url.username !== '' || url.password !== '') {
    throw errors.validation('url: must not contain a user name or password');
  }
  if (parseAddress(url.hostname) !== null) {
    const verdict = checkAddress(url.hostname, policy.ranges);
    if (!verdict.allowed) {
      throw errors.validation(`url: must be a public address; ${verdict.reason}`);
    }
  }
  return url.toString();
}

/**
 * The address a delivery connects to, decided at the moment of the delivery: a host
 * the configuration names may resolve to anything (the lab's own DNS); any other host
 * must resolve only to public addresses or allowed ranges, as for `image_url`.
 */
export async function targetAddress(
  url: URL,
  policy: TargetPolicy,
  resolver: Resolver,
  signal: AbortSignal,
): Promise<OutboundVerdict> {
  if (namedHost(url.hostname, policy) && parseAddress(url.hostname) === null) {
    try {
      const [first] = await beforeDeadline(resolver(url.hostname), signal);
      if (first !== undefined) return { ok: true, connectTo: first };
    } catch (error) {
      if (signal.aborted) throw error;
    }
    return { ok: false, kind: 'not_found', reason: `host ${url.hostname} was not found` };
  }
  return outboundAddress(url.hostname, { allowed: policy.ranges, resolver, signal });
}
