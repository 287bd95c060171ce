import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { errors } from './errors.js';
import { canonicalJson } from './json.js';

/** A sort key value as it travels inside a cursor. */
export type KeyValue = string | number | null;
export type SortKey = readonly KeyValue[];

/** One page of a list: its items and the sort key the next page starts after (null: last page). */
export interface Page<T> {
  readonly items: T[];
  readonly nextKey: SortKey | null;
}

export interface PageRequest {
  readonly limit: number;
  readonly offset: number;
  /** The sort key of the last row of the previous page, when a cursor was sent. */
  readonly after: SortKey | null;
}

export interface PageSettings {
  readonly list: string;
  readonly defaultLimit: number;
  readonly maxLimit: number;
}

export const PAGE_QUERY_KEYS = ['limit', 'offset', 'cursor'] as const;

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
