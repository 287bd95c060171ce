import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fixture } from './fixtures.js';

/** The self-signed certificate of the test servers (names images.test, localhost, 127.0.0.1, ::1). */
export const TEST_CA = fixture('test-server.crt');

export interface TestHttpsServer {
  readonly port: number;
  /** TCP connections accepted so far: proves that a refused address was never dialled. */
  readonly connections: number;
  /** Requests received so far, by path. */
  readonly requests: string[];
  url(path: string, host?: string): string;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTPS server on 127.0.0.1 with the test certificate. */
export async function startHttpsServer(handler: Handler): Promise<TestHttpsServer> {
  const server: Server = createServer(
    { key: fixture('test-server.key'), cert: TEST_CA },
    (req, res) => {
      state.requests.push(req.url ?? '');
      handler(req, res);
    },
  );
  const state = { connections: 0, requests: [] as string[] };
  server.on('connection', () => {
    state.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    get connections() {
      return state.connections;
    },
    requests: state.requests,
    url: (path, host = '127.0.0.1') => `https://${host}:${port}${path}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
