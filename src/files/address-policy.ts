import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The verdict on one address: where to connect, or why not. */
export type AddressVerdict =
  | { readonly allowed: true; readonly connectTo: string }
  | { readonly allowed: false; readonly reason: string };

/**
 * Parses an IP address strictly. IPv6 goes through the WHATWG URL parser first
 * because ipaddr.js reads the deprecated `::a.b.c.d` form as IPv4-mapped, which
 * would hide an IPv4-compatible address behind the wrong name.
 */
export function parseAddress(text: string): Address | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIPv4(bare)) return ipaddr.IPv4.parse(bare);
  if (!isIPv6(bare)) return null;
  try {
    const canonical = new URL(`https://[${bare}]/`).hostname.slice(1, -1);
    return ipaddr.IPv6.parse(canonical);
  } catch {
    return null;
  }
}

/** Parses CIDRs (or bare addresses) once; the config has already validated them. */
export function parseCidrs(cidrs: readonly string[]): [Address, number][] {
  return cidrs.map((cidr) => {
    if (cidr.includes('/')) return ipaddr.parseCIDR(cidr);
    const address = ipaddr.parse(cidr);
    return [address, address.kind() === 'ipv6' ? 128 : 32];
  });
}

function inAllowList(address: Address, allowed: readonly [Address, number][]): boolean {
  return allowed.some(
    ([range, bits]) => range.kind() === address.kind() && address.match(range, bits),
  );
}

/** Whether an address (IPv4-mapped forms as their IPv4) lies inside one of the ranges. */
export function inRanges(text: string, ranges: readonly [Address, number][]): boolean {
  const parsed = parseAddress(text);
  if (parsed === null) return false;
  const address =
    parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress() ? parsed.toIPv4Address() : parsed;
  return inAllowList(address, ranges);
}

const IPV4_RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified (0.0.0.0/8) address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT (100.64.0.0/10) address',
  private: 'a private (RFC 1918) address',
  reserved: 'a reserved or documentation address',
  as112: 'an AS112 address',
  amt: 'an AMT relay address',
};

const IPV6_RANGE_NAMES: Record<string, string> = {
  unspecified: 'the unspecified address',
  linkLocal: 'a link-local address',
  multicast: 'a multicast address',
  loopback: 'a loopback address',
  uniqueLocal: 'a unique local (private) address',
  deprecatedSiteLocal: 'a site-local address',
  discard: 'a discard-only address',
  rfc6145: 'an IPv4-translated address',
  rfc6052: 'a local-use NAT64 address',
  teredo: 'a Teredo tunnel address',
  benchmarking: 'a benchmarking address',
  reserved: 'a reserved or documentation address',
};

function describeRange(address: Address): string {
  const range = address.range();
  const names = address.kind() === 'ipv4' ? IPV4_RANGE_NAMES : IPV6_RANGE_NAMES;
  return names[range] ?? `a special-purpose address (${range})`;
}

function ipv4FromWords(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * The IPv4 address an IPv6 transition form carries: IPv4-compatible `::a.b.c.d`,
 * NAT64 `64:ff9b::/96` and 6to4 `2002::/16`. Null for every other address.
 */
function embeddedIPv4(address: ipaddr.IPv6): { v4: ipaddr.IPv4; form: string } | null {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0] = address.parts;
  const middleZero = c === 0 && d === 0 && e === 0 && f === 0;
  if (a === 0 && b === 0 && middleZero && address.range() === 'unicast') {
    return { v4: ipv4FromWords(g, h), form: 'IPv4-compatible' };
  }
  if (a === 0x64 && b === 0xff9b && middleZero) return { v4: ipv4FromWords(g, h), form: 'NAT64' };
  if (a === 0x2002) return { v4: ipv4FromWords(b, c), form: '6to4' };
  return null;
}

const refuse = (reason: string): AddressVerdict => ({ allowed: false, reason });

/**
 * Decides whether an `image_url` download may connect to this address: only
 * public unicast, except inside the allowed private CIDRs. IPv4-mapped addresses
 * are judged (and connected to) as the IPv4 address they carry; NAT64 and 6to4
 * addresses are judged by the IPv4 address they embed; the deprecated
 * IPv4-compatible form never reaches the public internet and is always refused.
 */
export function checkAddress(
  text: string,
  allowed: readonly [Address, number][] = [],
): AddressVerdict {
  const parsed = parseAddress(text);
  if (parsed === null) return refuse(`"${text}" is not an IP address`);
  const address =
    parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress() ? parsed.toIPv4Address() : parsed;
  const shown = address.toString();
  if (inAllowList(address, allowed)) return { allowed: true, connectTo: shown };

  if (address instanceof ipaddr.IPv4) {
    if (address.range() === 'unicast') return { allowed: true, connectTo: shown };
    return refuse(`${shown} is ${describeRange(address)}`);
  }
  const embedded = embeddedIPv4(address);
  if (embedded !== null) {
    const { v4, form } = embedded;
    if (v4.range() !== 'unicast') {
      return refuse(`${shown} (${form} form of ${v4.toString()}) is ${describeRange(v4)}`);
    }
    if (form === 'IPv4-compatible') {
      return refuse(`${shown} is a deprecated IPv4-compatible address, not routed publicly`);
    }
    return { allowed: true, connectTo: shown };
  }
  if (address.range() === 'unicast') return { allowed: true, connectTo: shown };
  return refuse(`${shown} is ${describeRange(address)}`);
}
