import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/kernel/errors.js';
import { fetchImage, type FetchImageOptions } from '../../src/files/image-fetch.js';
import { sniffImage } from '../../src/files/sniff.js';
import { fixture } from './fixtures.js';
import { startHttpsServer, TEST_CA, type TestHttpsServer } from './https-server.js';

const PNG = fixture('tiny.png');
const LOOPBACK: FetchImageOptions = { allowedPrivate: ['127.0.0.1/32'], ca: TEST_CA };
const MB = 1024 * 1024;

/** The AppError a promise rejects with (fails the test if it resolves or throws anything else). */
async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw error;
  return error;
}

describe('fetchImage against a real HTTPS server on loopback', () => {
  let server: TestHttpsServer;
  beforeAll(async () => {
    server = await startHttpsServer((req, res) => {
      const path = req.url ?? '';
      if (path === '/leaf.png') {
        res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      } else if (path === '/moved.png') {
        res.writeHead(302, { location: '/leaf.png' }).end();
      } else if (path === '/gone.png') {
        res.writeHead(404, { 'content-type': 'image/png' }).end(PNG);
      } else if (path === '/notes.txt') {
        res.writeHead(200, { 'content-type': 'image/png' }).end(fixture('notes.txt'));
      } else if (path === '/drip') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(PNG.subarray(0, 8));
        const timer = setInterval(() => res.write(Buffer.from([0])), 50);
        res.on('close', () => clearInterval(timer));
      } else if (path === '/silent') {
        // Accepts the request and never answers.
      } else if (path === '/huge-chunked') {
        res.writeHead(200, { 'content-type': 'image/png' });
        const chunk = Buffer.alloc(64 * 1024, 1);
        let sent = 0;
        const pump = () => {
          while (sent < 11 * MB && !res.destroyed) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      } else if (path === '/huge-declared') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(20 * MB) });
        res.write(PNG);
      } else if (path.startsWith('/exact/')) {
        res.writeHead(200).end(Buffer.alloc(Number(path.slice('/exact/'.length)), 7));
      } else {
        res.writeHead(500).end();
      }
    });
  });
  afterAll(() => server.close());

  it('downloads a real image from an allowed loopback address, trusting the test CA', async () => {
    const fetched = await fetchImage(server.url('/leaf.png'), LOOPBACK);
    expect(fetched.bytes.equals(PNG)).toBe(true);
    expect(fetched.declaredType).toBe('image/png');
    expect(await sniffImage(fetched.bytes)).toEqual({ mime: 'image/png', ext: 'png' });
    // The connection counter that proves refusals open none does count real ones.
    expect(server.connections).toBeGreaterThan(0);
  });

  it('connects by host name to the checked address only, with TLS checked against the name', async () => {
    let lookups = 0;
    const resolver = async () => {
      lookups += 1;
      return lookups === 1 ? ['127.0.0.1'] : ['10.0.0.1'];
    };
    // images.test is unknown to the system resolver: success proves no second lookup.
    const fetched = await fetchImage(server.url('/leaf.png', 'images.test'), {
      ...LOOPBACK,
      resolver,
    });
    expect(fetched.bytes.equals(PNG)).toBe(true);
    expect(lookups).toBe(1);
  });

  it('keeps certificate verification on: a name the certificate lacks fails', async () => {
    const error = await failure(
      fetchImage(server.url('/leaf.png', 'other.test'), {
        ...LOOPBACK,
        resolver: async () => ['127.0.0.1'],
      }),
    );
    expect(error.code).toBe('IMAGE_URL_FETCH_FAILED');
    expect(error.message).toMatch(/certificate/);
  });

  it('does not trust the self-signed test certificate without the ca option', async () => {
    const error = await failure(
      fetchImage(server.url('/leaf.png'), { allowedPrivate: ['127.0.0.1/32'] }),
    );
    expect(error.code).toBe('IMAGE_URL_FETCH_FAILED');
    expect(error.message).toMatch(/certificate/);
  });

  it('does not follow a redirect', async () => {
    const before = server.requests.length;
    const error = await failure(fetchImage(server.url('/moved.png'), LOOPBACK));
    expect(error.code).toBe('IMAGE_URL_FETCH_FAILED');
    expect(error.status).toBe(422);
    expect(error.message).toMatch(/redirected \(HTTP 302\)/);
    expect(server.requests.slice(before)).toEqual(['/moved.png']);
  });

  it('refuses an error status even when the body is an image', async () => {
    const error = await failure(fetchImage(server.url('/gone.png'), LOOPBACK));
    expect(error.code).toBe('IMAGE_URL_FETCH_FAILED');
    expect(error.message).toMatch(/HTTP 404/);
  });

  it('downloads a non-image (the sender says image/png), which sniffImage then rejects', async () => {
    const fetched = await fetchImage(server.url('/notes.txt'), LOOPBACK);
    expect(fetched.bytes.equals(fixture('notes.txt'))).toBe(true);
    expect(await sniffImage(fetched.bytes)).toBeNull();
  });

  it('gives up on a slow drip at the deadline', async () => {
    const started = Date.now();
    const error = await failure(fetchImage(server.url('/drip'), { ...LOOPBACK, deadlineMs: 400 }));
    expect(error.code).toBe('IMAGE_URL_FETCH_FAILED');
    expect(error.message).toMatch(/took longer than 0.4 seconds/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('gives up on a server that never answers at the deadline', async () => {
    const error = await failure(
      fetchImage(server.url('/silent'), { ...LOOPBACK, deadlineMs: 300 }),
    );
    expect(error.code).toBe('IMAGE_URL_FETCH_FAILED');
    expect(error.message).toMatch(/took longer/);
  });

  it('counts the deadline from the start, name resolution included', async () => {
    const error = await failure(
      fetchImage(server.url('/leaf.png', 'images.test'), {
        ...LOOPBACK,
        deadlineMs: 200,
        resolver: () => new Promise(() => undefined),
      }),
    );
    expect(error.code).toBe('IMAGE_URL_FETCH_FAILED');
    expect(error.message).toMatch(/took longer/);
  });

  it('stops a chunked body without Content-Length past 10 MB with 413', async () => {
    let progress = 0;
    const error = await failure(
      fetchImage(server.url('/huge-chunked'), {
        ...LOOPBACK,
        onProgress: (bytes) => (progress = bytes),
      }),
    );
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.status).toBe(413);
    expect(progress).toBeLessThanOrEqual(10 * MB);
    expect(progress).toBeGreaterThan(9 * MB);
  });

  it('refuses an advertised Content-Length above the cap before reading the body', async () => {
    const error = await failure(fetchImage(server.url('/huge-declared'), LOOPBACK));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('accepts a body of exactly maxBytes and refuses one byte more', async () => {
    const exact = await fetchImage(server.url('/exact/1000'), { ...LOOPBACK, maxBytes: 1000 });
    expect(exact.bytes.length).toBe(1000);
    const over = await failure(
      fetchImage(server.url('/exact/1001'), { ...LOOPBACK, maxBytes: 1000 }),
    );
    expect(over.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('lets onProgress abort the download with its own AppError', async () => {
    const error = await failure(
      fetchImage(server.url('/exact/300000'), {
        ...LOOPBACK,
        onProgress: () => {
          throw new AppError('IDEMPOTENCY_IN_FLIGHT', 'lease lost');
        },
      }),
    );
    expect(error.code).toBe('IDEMPOTENCY_IN_FLIGHT');
  });

  it('reports progress as bytes arrive', async () => {
    const seen: number[] = [];
    await fetchImage(server.url('/exact/300000'), { ...LOOPBACK, onProgress: (n) => seen.push(n) });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(300000);
  });
});

describe('fetchImage refusals before any connection', () => {
  it.each(['http://images.test/leaf.png', 'ftp://images.test/leaf.png', 'file:///etc/passwd'])(
    'refuses %s: https only',
    async (url) => {
      const error = await failure(fetchImage(url));
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.message).toMatch(/image_url must be an https address/);
    },
  );

  it('refuses what is not a URL and a URL carrying credentials', async () => {
    expect((await failure(fetchImage('not a url'))).message).toMatch(
      /image_url is not a valid URL/,
    );
    const withUser = await failure(fetchImage('https://user:pw@images.test/a.png'));
    expect(withUser.code).toBe('VALIDATION_ERROR');
    expect(withUser.message).toMatch(/user name or password/);
  });

  it('answers a host that is not found with IMAGE_URL_FETCH_FAILED', async () => {
    const resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const error = await failure(fetchImage('https://nowhere.test/a.png', { resolver }));
    expect(error.code).toBe('IMAGE_URL_FETCH_FAILED');
    expect(error.message).toMatch(/host nowhere.test was not found/);
    const empty = await failure(
      fetchImage('https://nowhere.test/a.png', { resolver: async () => [] }),
    );
    expect(empty.message).toMatch(/was not found/);
  });

  it('reports a refused connection on an allowed address', async () => {
    const closed = await startHttpsServer(() => undefined);
    const url = closed.url('/a.png');
    await closed.close();
    const error = await failure(fetchImage(url, LOOPBACK));
    expect(error.code).toBe('IMAGE_URL_FETCH_FAILED');
    expect(error.message).toMatch(/connection was refused/);
  });
});
