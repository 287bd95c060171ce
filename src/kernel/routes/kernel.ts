import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { Claim } from '../idempotency.js';
import type { PageRequest } from '../../db/pages.js';
import type { CursorCodec } from '../paging.js';
import type { Authenticator, Principal, SessionAuthenticator } from '../principal.js';
import type { RateLimiter } from '../rate-limit.js';
import type { SpreadsheetSource } from './csv-spreadsheet.js';

/** Everything the kernel needs to run a route, built once per app. */
export interface Kernel {
  readonly config: Config;
  readonly database: Database;
  readonly authenticate: Authenticator;
  /** Console sessions and sign-in links. */
  readonly sessions: SessionAuthenticator;
  readonly rateLimiter: RateLimiter;
  readonly cursors: CursorCodec;
  /** The names and time zone of a lab, for spreadsheet-friendly CSV exports. */
  readonly spreadsheet: SpreadsheetSource;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    pageRequest: PageRequest | null;
    pageFilters: string;
    idempotencyClaim: Claim | null;
  }
}
