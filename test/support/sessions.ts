import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { inTransaction } from '../../src/db/transaction.js';
import { mintSignInLinkForMember } from '../../src/modules/sessions/index.js';
import { body, type TestApp } from './harness.js';

/** The origin every console request of the tests comes from (the app's default PUBLIC_URL). */
export const CONSOLE_ORIGIN = 'http://127.0.0.1:3000';

/** A fresh sign-in link for a member, as `vitro member link` mints it: its URL and secret. */
export async function mintLink(
  t: TestApp,
  memberId: string,
): Promise<{ url: string; secret: string }> {
  const link = await inTransaction(t.database.db, (trx) =>
    mintSignInLinkForMember(trx, memberId, t.config.publicUrl, new Date().toISOString()),
  );
  return { url: link.url, secret: link.url.slice(link.url.indexOf('#') + 1) };
}

/** The `name=value` of the Set-Cookie a response sets, or null. */
export function cookieOf(res: LightMyRequestResponse): string | null {
  const header = res.headers['set-cookie'];
  const first = Array.isArray(header) ? header[0] : header;
  return first === undefined ? null : first.split(';')[0]!;
}

/** A person signed in to the console: requests carry the cookie and the console's Origin. */
export interface SessionClient {
  readonly cookie: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON bodies loosely
  readonly session: any;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  patch(url: string, payload: unknown): Promise<LightMyRequestResponse>;
  delete(url: string): Promise<LightMyRequestResponse>;
}

export function sessionClient(
  t: TestApp,
  cookie: string,
  session: SessionClient['session'] = null,
): SessionClient {
  const request = (options: InjectOptions) =>
    t.request({
      ...options,
      headers: {
        cookie,
        ...(options.method === 'GET' ? {} : { origin: CONSOLE_ORIGIN }),
        ...options.headers,
      },
    });
  return {
    cookie,
    session,
    request,
    get: (url) => request({ method: 'GET', url }),
    post: (url, payload) =>
      request({
        method: 'POST',
        url,
        ...(payload === undefined ? {} : { payload: payload as object }),
      }),
    patch: (url, payload) => request({ method: 'PATCH', url, payload: payload as object }),
    delete: (url) => request({ method: 'DELETE', url }),
  };
}

/** A link's secret exchanged for a session (`POST /api/v1/session`), as the console sends it. */
export function redeemLink(
  t: TestApp,
  secret: string,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.request({
    method: 'POST',
    url: '/api/v1/session',
    headers: { authorization: `Bearer ${secret}`, origin: CONSOLE_ORIGIN, ...headers },
  });
}

/** Signs a member in through a freshly minted link, as the console does. */
export async function signIn(t: TestApp, memberId: string): Promise<SessionClient> {
  const { secret } = await mintLink(t, memberId);
  const res = await redeemLink(t, secret);
  if (res.statusCode !== 201) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const cookie = cookieOf(res);
  if (cookie === null) throw new Error('sign-in set no cookie');
  return sessionClient(t, cookie, body(res).data);
}
