import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import type { Page, PageRequest } from '../../db/pages.js';
import { effectiveScopes, type Scope } from '../../kernel/access.js';
import { AppError } from '../../kernel/errors.js';
import type { Principal } from '../../kernel/principal.js';
import { queryWords } from './search.documents.js';
import { searchDocuments } from './search.repository.js';
import {
  SEARCH_KINDS,
  type SearchKind,
  type SearchQuery,
  type SearchResult,
} from './search.schemas.js';

export type SearchResultRecord = Static<typeof SearchResult>;

/** The scope a key needs to find records of each kind. */
const READ_SCOPE: Readonly<Record<SearchKind, Scope>> = {
  plant: 'read:plants',
  explant: 'read:explants',
  task: 'read:tasks',
  sop: 'read:sops',
  room: 'read:workspace',
  contamination: 'read:contaminations',
};

/** The kinds the key may read: the one asked for (403 when it may not), else all it may. */
function kindsFor(principal: Principal, asked: SearchKind | undefined): SearchKind[] {
  const scopes = new Set<Scope>(
    principal.role === null
      ? []
      : effectiveScopes(principal.scopes, principal.role, principal.plan),
  );
  if (asked !== undefined) {
    if (!scopes.has(READ_SCOPE[asked])) {
      throw new AppError(
        'FORBIDDEN',
        `kind=${asked} needs the ${READ_SCOPE[asked]} scope, which this key lacks`,
      );
    }
    return [asked];
  }
  return SEARCH_KINDS.filter((kind) => scopes.has(READ_SCOPE[kind]));
}

/**
 * GET /search: the records of the workspace whose names hold every word of `q`,
 * best first, a page at a time; only kinds the key may read, archived records left
 * out. The cursor holds how many results came before.
 */
export async function search(
  db: Db,
  principal: Principal,
  query: Static<typeof SearchQuery>,
  page: PageRequest,
): Promise<Page<SearchResultRecord>> {
  const words = queryWords(query.q);
  const kinds = kindsFor(principal, query.kind);
  if (words.length === 0 || kinds.length === 0) return { items: [], nextKey: null };
  const offset = page.after === null ? page.offset : Number(page.after[0]);
  const hits = await searchDocuments(db, {
    workspaceId: principal.workspaceId,
    words,
    kinds,
    offset,
    limit: page.limit + 1,
  });
  const items = hits.slice(0, page.limit).map((hit) => ({
    kind: hit.kind,
    id: hit.record_id,
    title: hit.title,
    subtitle: hit.subtitle,
    parent_id: hit.parent_id,
  }));
  return { items, nextKey: hits.length > page.limit ? [offset + page.limit] : null };
}
