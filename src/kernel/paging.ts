import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import Type from 'typebox';
import { errors } from './errors.js';
import { canonicalJson } from './json.js';
import { Int } from './schemas.js';
import type { KeyValue, SortKey } from '../db/pages.js';

export interface PageSettings {
  readonly list: string;
  readonly defaultLimit: number;
  readonly maxLimit: number;
  /** The list answers `Accept: text/csv` with every matching row (routes/csv.ts). */
  readonly csv: boolean;
}

export const PAGE_QUERY_KEYS = ['limit', 'offset', 'cursor'] as const;

/**
 * The largest `offset`: both databases skip that many rows without trouble, and
 * deeper pages are what cursors are for. Larger values are refused (422).
 */
export const OFFSET_MAX = 1_000_000;
export const CURSOR_MAX_LENGTH = 2048;

const OFFSET_DESCRIPTION = 'Rows to skip, 0 to 1,000,000; not with cursor (cursors are preferred)';

/**
 * The query parameters of a paged list. Bounded, so that no value reaches the
 * database that it cannot take: `limit` is a 32-bit integer (capped at the list's
 * maximum), `offset` at most OFFSET_MAX.
 */
export function pagingParameters(settings: PageSettings) {
  return {
    limit: Type.Optional(
      Int({
        minimum: 1,
        description: `Page size, default ${settings.defaultLimit}; values above ${settings.maxLimit} are capped`,
      }),
    ),
    offset: Type.Optional(
      Int({ minimum: 0, maximum: OFFSET_MAX, description: OFFSET_DESCRIPTION }),
    ),
    cursor: Type.Optional(
      Type.String({
        maxLength: CURSOR_MAX_LENGTH,
        description: 'meta.next_cursor of the previous page',
      }),
    ),
  };
}

const CURSOR_VERSION = 1;
const MAC_BYTES = 16;

interface CursorPayload {
  v: number;
  l: string;
  f: string;
  w: string;
  k: KeyValue[];
}

/** Hash of the filters a list was asked with: paging parameters excluded, order-free. */
export function filterHash(query: Record<string, unknown>): string {
  const filters: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || (PAGE_QUERY_KEYS as readonly string[]).includes(key)) continue;
    filters[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return createHash('sha256').update(canonicalJson(filters)).digest('base64url').slice(0, 22);
}

export class CursorCodec {
  readonly #secret: Buffer;

  constructor(secret: string) {
    this.#secret = Buffer.from(`vitro-cursor:${secret}`);
  }

  #mac(body: string): Buffer {
    return createHmac('sha256', this.#secret).update(body).digest().subarray(0, MAC_BYTES);
  }

  encode(list: string, filters: string, workspaceId: string, key: SortKey): string {
    const payload: CursorPayload = {
      v: CURSOR_VERSION,
      l: list,
      f: filters,
      w: workspaceId,
      k: [...key],
    };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.#mac(body).toString('base64url')}`;
  }

  /** The sort key inside a cursor; INVALID_CURSOR for anything tampered with or foreign. */
  decode(cursor: string, list: string, filters: string, workspaceId: string): SortKey {
    const dot = cursor.indexOf('.');
    if (dot <= 0) throw errors.invalidCursor();
    const body = cursor.slice(0, dot);
    // Compared as text: base64url tolerates changed padding bits in the last character.
    const mac = Buffer.from(cursor.slice(dot + 1));
    const expected = Buffer.from(this.#mac(body).toString('base64url'));
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) {
      throw errors.invalidCursor();
    }
    let payload: CursorPayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
    } catch {
      throw errors.invalidCursor();
    }
    if (
      payload.v !== CURSOR_VERSION ||
      payload.l !== list ||
      payload.f !== filters ||
      payload.w !== workspaceId ||
      !Array.isArray(payload.k)
    ) {
      throw errors.invalidCursor();
    }
    return payload.k;
  }
}

/** Reads `limit`/`offset`/`cursor` from a validated query: caps the limit, refuses cursor+offset. */
export function readPageQuery(
  query: { limit?: number; offset?: number; cursor?: string },
  settings: PageSettings,
): { limit: number; offset: number; cursor: string | null } {
  if (query.cursor !== undefined && query.offset !== undefined) {
    throw errors.validation('cursor and offset cannot be sent together; use one of them');
  }
  const limit = Math.min(query.limit ?? settings.defaultLimit, settings.maxLimit);
  return { limit, offset: query.offset ?? 0, cursor: query.cursor ?? null };
}
