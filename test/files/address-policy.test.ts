import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAddress, parseCidrs } from '../../src/files/address-policy.js';
import { fetchImage } from '../../src/files/image-fetch.js';
import { AppError } from '../../src/kernel/errors.js';
import { REFUSED_RESOLVER_ANSWERS, REFUSED_URL_HOSTS } from './refused-addresses.js';
import { startHttpsServer, TEST_CA, type TestHttpsServer } from './https-server.js';

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
