import type { Routes } from '../../kernel/routes/index.js';
import { SearchQuery, SearchResult } from './search.schemas.js';
import { search } from './search.service.js';

export function registerSearchRoutes(routes: Routes): void {
  routes.list({
    url: '/api/v1/search',
    operationId: 'search',
    tags: ['Search'],
    summary: "Search the lab's records",
    description:
      'Plants (name, species, genus, family, cultivar, external id), explants (label, batch, ' +
      "external id, and their plant's names), tasks (title, notes), SOPs (title, description, " +
      'category, tags), rooms (name) and contaminations (issue, type, notes), best matches ' +
      'first. Each word of `q` must begin a word of the record. Only the kinds the key may read ' +
      '(read:plants, read:explants, read:tasks, read:sops, read:contaminations; rooms with ' +
      'read:workspace); archived records are left out. To resolve a scanned label code, ' +
      'GET /labels/resolve answers the one record it names.',
    scope: 'read:workspace',
    failureCode: 'SEARCH_QUERY_FAILED',
    querystring: SearchQuery,
    paging: { list: 'search', defaultLimit: 20, maxLimit: 100 },
    item: SearchResult,
    handler: (req, ctx) => search(ctx.db, ctx.principal, req.query, ctx.page),
  });
}
