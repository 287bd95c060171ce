import { connect, type Socket } from 'node:net';

/** One HTTP/1.1 response as read off a socket. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What came back on one connection: the responses, and how the server closed it. */
export interface RawExchange {
  responses: RawResponse[];
  /** The server closed its side cleanly (FIN). */
  ended: boolean;
  /** The connection was reset (or failed) instead. */
  error: string | null;
  /** Bytes that did not parse as a response. */
  rest: string;
}

/** The complete responses in `raw`, and what is left over. */
export function parseResponses(raw: Buffer): { responses: RawResponse[]; rest: string } {
  const responses: RawResponse[] = [];
  let offset = 0;
  for (;;) {
    const headEnd = raw.indexOf('\r\n\r\n', offset, 'latin1');
    if (headEnd < 0) break;
    const [statusLine = '', ...lines] = raw
      .subarray(offset, headEnd)
      .toString('latin1')
      .split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
    if (!Number.isInteger(status)) break;
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon > 0)
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let cursor = headEnd + 4;
    let body: Buffer;
    if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = raw.indexOf('\r\n', cursor, 'latin1');
        if (lineEnd < 0) return { responses, rest: raw.subarray(offset).toString('latin1') };
        const size = parseInt(raw.subarray(cursor, lineEnd).toString('latin1'), 16);
        cursor = lineEnd + 2;
        if (size === 0) {
          cursor += 2;
          break;
        }
        parts.push(raw.subarray(cursor, cursor + size));
        cursor += size + 2;
      }
      body = Buffer.concat(parts);
    } else {
      const length = Number(headers['content-length'] ?? 0);
      if (cursor + length > raw.length) break;
      body = raw.subarray(cursor, cursor + length);
      cursor += length;
    }
    responses.push({ status, headers, body: body.toString('utf8') });
    offset = cursor;
  }
  return { responses, rest: raw.subarray(offset).toString('latin1') };
}

/**
 * Writes `chunks` to a fresh connection (waiting `gapMs` between them, or until
 * the previous chunks were answered with `waitForResponses`) and reads until the
 * connection closes or `timeoutMs` passes. Like a client uploading, it goes on
 * writing after the server ended its side, and ends its own once all is written:
 * a server that closes while data is still coming resets the connection.
 */
export function rawExchange(
  port: number,
  chunks: readonly (string | Buffer)[],
  options: { gapMs?: number; timeoutMs?: number; waitForResponses?: boolean } = {},
): Promise<RawExchange> {
  const { gapMs = 20, timeoutMs = 3000, waitForResponses = false } = options;
  return new Promise((resolve) => {
    const socket: Socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const received: Buffer[] = [];
    let ended = false;
    let allSent = false;
    let error: string | null = null;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseResponses(Buffer.concat(received)), ended, error });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (data) => received.push(data));
    socket.on('end', () => {
      ended = true;
      if (allSent) socket.end();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('close', finish);
    const answered = () => parseResponses(Buffer.concat(received)).responses.length;
    const send = async () => {
      for (const [i, chunk] of chunks.entries()) {
        if (i > 0 && waitForResponses) {
          while (!done && answered() < i) await new Promise((r) => setTimeout(r, 5));
        } else if (i > 0) {
          await new Promise((r) => setTimeout(r, gapMs));
        }
        if (done || !socket.writable) return;
        socket.write(chunk);
      }
      allSent = true;
      if (ended) socket.end();
    };
    socket.once('connect', () => void send());
  });
}
