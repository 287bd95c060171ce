import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Type from 'typebox';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLab, startTestApp, sqliteTarget } from '../support/harness.js';
import { parseResponses, rawExchange, type RawResponse } from '../support/raw-http.js';
import { appSuite, describeOnDatabases, labSuite } from '../support/suite.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectEnvelope(res: RawResponse | undefined, status: number, code: string) {
  expect(res, 'a response').toBeDefined();
  expect(res!.status).toBe(status);
  expect(res!.headers['content-type']).toMatch(/^application\/json/);
  expect(res!.headers['x-request-id']).toMatch(UUID);
  expect(JSON.parse(res!.body)).toEqual({
    ok: false,
    data: null,
    error: expect.any(String),
    code,
  });
}

/**
 * Errors found by Node's HTTP parser or by Fastify's router never reach a route,
 * and `inject` skips the parser: these tests talk HTTP over a real socket.
 */
describe('protocol-level errors over a real socket', () => {
  // None of this reaches the database: SQLite is enough.
  const { t, lab } = labSuite(sqliteTarget(), {}, { shared: true });
  let port: number;
  let auth: string;
  beforeAll(async () => {
    auth = lab.owner.headers.authorization;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });

  const get = (path: string, extra = '') =>
    `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${auth}\r\n${extra}\r\n`;

  it('answers bad percent-encoding in the path with 400 VALIDATION_ERROR in the envelope', async () => {
    const exchange = await rawExchange(port, [get('/api/v1/plants/%zz', 'Connection: close\r\n')]);
    expectEnvelope(exchange.responses[0], 400, 'VALIDATION_ERROR');
    expect(JSON.parse(exchange.responses[0]!.body).error).toMatch(/percent-encoding/);
  });

  it('answers a path parameter over 100 characters like any malformed id: 404 NOT_FOUND', async () => {
    const exchange = await rawExchange(port, [
      get(`/api/v1/plants/${'a'.repeat(101)}`, 'Connection: close\r\n'),
    ]);
    expectEnvelope(exchange.responses[0], 404, 'NOT_FOUND');
    expect(JSON.parse(exchange.responses[0]!.body).error).toMatch(/100 characters/);
    // One character less is an id that is merely malformed: the same status and code.
    const shorter = await rawExchange(port, [
      get(`/api/v1/plants/${'a'.repeat(100)}`, 'Connection: close\r\n'),
    ]);
    expectEnvelope(shorter.responses[0], 404, 'NOT_FOUND');
  });

  it('answers an expectation it cannot meet with 417 in the envelope and closes cleanly', async () => {
    const payload = '{"species":"Ficus"}';
    const exchange = await rawExchange(port, [
      `POST /api/v1/plants HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${auth}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${payload.length}\r\nExpect: the-unexpected\r\n\r\n${payload}`,
    ]);
    expectEnvelope(exchange.responses[0], 417, 'VALIDATION_ERROR');
    expect(exchange.responses[0]!.headers.connection).toBe('close');
    expect({ ended: exchange.ended, error: exchange.error }).toEqual({ ended: true, error: null });
    // Nothing was created.
    const list = await t.request({
      method: 'GET',
      url: '/api/v1/plants',
      headers: { authorization: auth },
    });
    expect(list.json().data).toEqual([]);
  });

  it('answers headers over the limit with 431 and Connection: close, then closes the keep-alive connection cleanly', async () => {
    // The client is still sending when the server refuses the request: closing must
    // not reset the connection (a reset can discard the response before it is read).
    const big = 'a'.repeat(20 * 1024);
    const exchange = await rawExchange(
      port,
      [get('/healthz'), `GET /api/v1/me HTTP/1.1\r\nHost: localhost\r\nX-Big: ${big}`, big, big],
      { gapMs: 100 },
    );
    expect(exchange.responses[0]?.status).toBe(200);
    expectEnvelope(exchange.responses[1], 431, 'PAYLOAD_TOO_LARGE');
    expect(exchange.responses[1]!.headers.connection).toBe('close');
    expect({ ended: exchange.ended, error: exchange.error }).toEqual({ ended: true, error: null });
  });

  it('answers a NUL byte in a header with 400 VALIDATION_ERROR in the envelope and closes cleanly', async () => {
    const exchange = await rawExchange(port, [get('/api/v1/me', 'X-Odd: a\u0000b\r\n')]);
    expectEnvelope(exchange.responses[0], 400, 'VALIDATION_ERROR');
    expect(exchange.responses[0]!.headers.connection).toBe('close');
    expect({ ended: exchange.ended, error: exchange.error }).toEqual({ ended: true, error: null });
  });

  it('answers a request that is not HTTP with 400 VALIDATION_ERROR in the envelope', async () => {
    const exchange = await rawExchange(port, ['HELLO THERE\r\n\r\n']);
    expectEnvelope(exchange.responses[0], 400, 'VALIDATION_ERROR');
    expect(exchange.ended).toBe(true);
  });

  it('answers an HTTP/1.1 request without Host with 400 VALIDATION_ERROR in the envelope', async () => {
    const exchange = await rawExchange(port, ['GET /healthz HTTP/1.1\r\n\r\n']);
    expectEnvelope(exchange.responses[0], 400, 'VALIDATION_ERROR');
    expect(JSON.parse(exchange.responses[0]!.body).error).toMatch(/Host/);
    expect(exchange.responses[0]!.headers.connection).toBe('close');
  });

  it('still serves ordinary requests on a kept-alive connection', async () => {
    const exchange = await rawExchange(
      port,
      [get('/healthz'), get('/api/v1/me', 'Connection: close\r\n')],
      {
        waitForResponses: true,
      },
    );
    expect(exchange.responses.map((r) => r.status)).toEqual([200, 200]);
    expect(exchange.responses.every((r) => UUID.test(r.headers['x-request-id'] ?? ''))).toBe(true);
  });
});

/** The lines a test app logged, parsed. */
function logCapture() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return {
    stream,
    text: () => text,
    lines: () =>
      text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describeOnDatabases('the log of a malformed request', (target) => {
  const log = logCapture();
  const { t } = appSuite(target, {
    logger: true,
    logStream: log.stream,
    env: { LOG_LEVEL: 'info' },
  });
  let port: number;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });

  /** The log lines written while `send` runs. */
  const loggedDuring = async (send: () => Promise<unknown>) => {
    const before = log.lines().length;
    const bytesBefore = log.text().length;
    await send();
    return { lines: log.lines().slice(before), bytes: log.text().length - bytesBefore };
  };

  it.each([
    {
      what: 'headers over the limit (20 KB, still sending)',
      chunks: [
        `GET /api/v1/me HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20 * 1024)}`,
        'a'.repeat(20 * 1024),
        'a'.repeat(20 * 1024),
      ],
      status: 431,
      code: 'HPE_HEADER_OVERFLOW',
    },
    {
      what: 'a bad character in a header',
      chunks: [
        `GET /api/v1/me HTTP/1.1\r\nHost: localhost\r\nX-Odd: ${'b'.repeat(4000)}\u0000b\r\n\r\n`,
      ],
      status: 400,
      code: 'HPE_INVALID_HEADER_TOKEN',
    },
  ])(
    'logs $what once, short: its code and the remote address, no packet, no stack',
    async ({ chunks, status, code }) => {
      let exchange: Awaited<ReturnType<typeof rawExchange>> | undefined;
      const { lines, bytes } = await loggedDuring(async () => {
        exchange = await rawExchange(port, chunks, { gapMs: 50 });
      });
      // The client is answered as before.
      expect(exchange!.responses[0]?.status).toBe(status);
      const refused = lines.filter((line) => line.msg === 'malformed request refused');
      expect(refused).toHaveLength(1);
      expect(refused[0]).toMatchObject({
        level: 30,
        clientError: { code, reason: expect.any(String) },
        remoteAddress: '127.0.0.1',
        requestId: exchange!.responses[0]!.headers['x-request-id'],
      });
      const line = JSON.stringify(refused[0]);
      expect(line).not.toMatch(/rawPacket|stack|"err"/);
      // A few hundred bytes, whatever the request's size.
      expect(line.length).toBeLessThan(400);
      expect(bytes).toBeLessThan(1000);
    },
  );
});

describe('requests arriving while the server shuts down', () => {
  it('are answered 503 SERVICE_UNAVAILABLE in the envelope, after the request in progress', async () => {
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const t = await startTestApp(sqliteTarget(), {
      extraRoutes: (routes) => {
        routes.read({
          url: '/api/v1/test/hold',
          operationId: 'testHold',
          tags: ['Account'],
          summary: 'answers when the test lets it',
          scope: null,
          plan: 'any',
          failureCode: 'INTERNAL_ERROR',
          data: Type.Object({ held: Type.Boolean() }),
          handler: async () => {
            entered();
            await released;
            return { data: { held: true } };
          },
        });
      },
    });
    const auth = (await createLab(t.database)).owner.headers.authorization;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const request = (path: string) =>
      `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${auth}\r\n\r\n`;

    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk) => received.push(chunk));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write(request('/api/v1/test/hold'));
    await inHandler;
    const closing = t.app.close();
    // Pipelined behind the request in progress, so it arrives after shutdown began.
    socket.write(request('/api/v1/me'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 3000))]);
    socket.destroy();
    await closing;
    await t.database.close();

    const exchange = parseResponses(Buffer.concat(received)).responses;
    expect(exchange.map((r) => r.status)).toEqual([200, 503]);
    expectEnvelope(exchange[1], 503, 'SERVICE_UNAVAILABLE');
    expect(exchange[1]!.headers.connection).toBe('close');
  });
});
