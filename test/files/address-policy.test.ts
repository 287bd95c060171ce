import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAddress, parseCidrs } from '../../src/files/address-policy.js';
import { fetchImage } from '../../src/files/image-fetch.js';
import { AppError } from '../../src/kernel/errors.js';
import { startHttpsServer, TEST_CA, type TestHttpsServer } from './https-server.js';

/** Hosts as written in an `image_url`, each naming a non-public address. */
const REFUSED_URL_HOSTS = [
  // loopback, in every IPv4 spelling the WHATWG URL parser accepts
  '127.0.0.1',
  '127.1',
  '127.0.1',
  '127.255.255.254',
  '0x7f000001',
  '0x7F.0.0.1',
  '0x7f.0x0.0x0.0x1',
  '0177.0.0.1',
  '017700000001',
  '2130706433',
  '127.0.0.1.',
  '%31%32%37.0.0.1',
  // unspecified
  '0',
  '0.0.0.0',
  '0x0',
  // RFC 1918
  '10.0.0.1',
  '012.0.0.1',
  '167772161',
  '0xa000001',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '3232235777',
  '0xc0a80101',
  // link-local, cloud metadata
  '169.254.169.254',
  '2852039166',
  '0xa9.0xfe.0xa9.0xfe',
  // carrier-grade NAT
  '100.64.0.1',
  '100.127.255.254',
  // multicast, broadcast
  '224.0.0.1',
  '239.255.255.250',
  '255.255.255.255',
  '4294967295',
  // documentation, benchmarking, reserved, IETF protocol assignments
  '192.0.2.10',
  '198.51.100.7',
  '203.0.113.9',
  '198.18.0.1',
  '240.0.0.1',
  '192.0.0.8',
  // IPv6 loopback, unspecified, link-local, ULA, multicast, site-local, documentation, discard
  '[::1]',
  '[0:0:0:0:0:0:0:1]',
  '[::]',
  '[fe80::1]',
  '[fc00::1]',
  '[fd12:3456:789a::1]',
  '[ff02::1]',
  '[fec0::1]',
  '[2001:db8::1]',
  '[3fff::1]',
  '[100::1]',
  // IPv4-mapped, -compatible, -translated, NAT64, 6to4 forms of private IPv4, and Teredo
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[::ffff:10.0.0.1]',
  '[::ffff:169.254.169.254]',
  '[0:0:0:0:0:ffff:c0a8:101]',
  '[::127.0.0.1]',
  '[::10.0.0.1]',
  '[::ffff:0:127.0.0.1]',
  '[64:ff9b::127.0.0.1]',
  '[64:ff9b::a9fe:a9fe]',
  '[64:ff9b:1::a00:1]',
  '[2002:7f00:1::1]',
  '[2002:c0a8:101::1]',
  '[2002:a9fe:a9fe::]',
  '[2001::1]',
  '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
];

/** Answers a resolver might give for a host name; every one must refuse the host. */
const REFUSED_RESOLVER_ANSWERS = [
  '127.0.0.1',
  '127.53.0.1',
  '0.0.0.0',
  '10.1.2.3',
  '172.20.0.5',
  '192.168.0.10',
  '169.254.169.254',
  '100.100.100.200',
  '224.0.0.251',
  '255.255.255.255',
  '192.0.2.1',
  '198.51.100.1',
  '203.0.113.1',
  '240.1.2.3',
  '::1',
  '::',
  'fe80::1',
  'fe80::1%eth0',
  'fd00:ec2::254',
  'ff02::fb',
  '::ffff:127.0.0.1',
  '::ffff:192.168.0.1',
  '::ffff:a9fe:a9fe',
  '::127.0.0.1',
  '::a00:1',
  '::8.8.8.8',
  '64:ff9b::10.0.0.1',
  '2002:a00:1::1',
  '2001:db8::5',
  // not canonical addresses at all: refused rather than guessed at
  '127.1',
  '0x7f000001',
  'localhost',
  '',
];

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => new Error('expected a refusal'),
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw error;
  return error;
}

describe('image_url address policy', () => {
  let server: TestHttpsServer;
  beforeAll(async () => {
    server = await startHttpsServer((_req, res) => res.writeHead(200).end('never reached'));
  });
  afterAll(() => server.close());

  it('has a table of at least 60 refused spellings', () => {
    expect(REFUSED_URL_HOSTS.length + REFUSED_RESOLVER_ANSWERS.length).toBeGreaterThanOrEqual(60);
    expect(REFUSED_URL_HOSTS.length).toBeGreaterThanOrEqual(60);
  });

  it('relies on WHATWG URL to normalise numeric IPv4 spellings', () => {
    for (const host of ['0x7f000001', '017700000001', '2130706433', '0x7f.1', '0177.0.0.1']) {
      expect(new URL(`https://${host}/`).hostname).toBe('127.0.0.1');
    }
    expect(new URL('https://[::127.0.0.1]/').hostname).toBe('[::7f00:1]');
  });

  it.each(REFUSED_URL_HOSTS)('refuses the URL host %s', async (host) => {
    const error = await refusal(
      fetchImage(`https://${host}:${server.port}/leaf.png`, { ca: TEST_CA }),
    );
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.status).toBe(422);
    expect(error.message).toMatch(/^image_url must be a public address; /);
  });

  it.each(REFUSED_RESOLVER_ANSWERS)('refuses a host resolving to %j', async (answer) => {
    const error = await refusal(
      fetchImage(server.url('/leaf.png', 'images.test'), {
        ca: TEST_CA,
        resolver: async () => [answer],
      }),
    );
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toMatch(/host images.test resolves to a refused address/);
  });

  it('refuses a host whose answers are public first and private second (rebinding)', async () => {
    const error = await refusal(
      fetchImage(server.url('/leaf.png', 'images.test'), {
        ca: TEST_CA,
        resolver: async () => ['93.184.215.14', '2606:4700::6810:84e5', '127.0.0.1'],
      }),
    );
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toMatch(/127\.0\.0\.1 is a loopback address/);
  });

  it('refuses localhost through the system resolver', async () => {
    const error = await refusal(fetchImage(server.url('/leaf.png', 'localhost'), { ca: TEST_CA }));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toMatch(/loopback/);
  });

  it('opened no connection for any of the refusals above', () => {
    expect(server.connections).toBe(0);
  });

  it('says which rule refused', () => {
    expect(checkAddress('10.0.0.1')).toEqual({
      allowed: false,
      reason: '10.0.0.1 is a private (RFC 1918) address',
    });
    expect(checkAddress('64:ff9b::a00:1')).toEqual({
      allowed: false,
      reason: '64:ff9b::a00:1 (NAT64 form of 10.0.0.1) is a private (RFC 1918) address',
    });
  });
});

describe('checkAddress', () => {
  it.each([
    ['8.8.8.8', '8.8.8.8'],
    ['93.184.215.14', '93.184.215.14'],
    ['::ffff:8.8.8.8', '8.8.8.8'],
    ['2606:4700::1111', '2606:4700::1111'],
    ['64:ff9b::808:808', '64:ff9b::808:808'],
    ['2002:808:808::1', '2002:808:808::1'],
  ])('allows the public address %s, connecting to %s', (address, connectTo) => {
    expect(checkAddress(address)).toEqual({ allowed: true, connectTo });
  });

  it('allows private addresses only inside the allowed CIDRs', () => {
    const allowed = parseCidrs(['127.0.0.1/32', '10.1.0.0/16', 'fd00::/8']);
    expect(checkAddress('127.0.0.1', allowed).allowed).toBe(true);
    expect(checkAddress('::ffff:127.0.0.1', allowed)).toEqual({
      allowed: true,
      connectTo: '127.0.0.1',
    });
    expect(checkAddress('10.1.200.3', allowed).allowed).toBe(true);
    expect(checkAddress('fd00::5', allowed).allowed).toBe(true);
    expect(checkAddress('127.0.0.2', allowed).allowed).toBe(false);
    expect(checkAddress('10.2.0.1', allowed).allowed).toBe(false);
    expect(checkAddress('::1', allowed).allowed).toBe(false);
  });
});
