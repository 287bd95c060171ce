import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { Routes } from '../../kernel/routes/index.js';
import { timeWindow } from '../../kernel/window.js';
import {
  CultureLinePrice,
  CultureLinePriceQuery,
  PriceEvent,
  PriceEventQuery,
} from './pricing.schemas.js';
import { listCultureLinePrices, listPriceEvents } from './pricing.service.js';

export function registerPricingRoutes(routes: Routes, deps: { records: RecordLookup }): void {
  routes.list({
    url: '/api/v1/pricing/culture-lines',
    operationId: 'listCultureLinePrices',
    tags: ['Pricing'],
    summary: 'List culture line prices',
    description:
      'Newest first by when the line was first priced. Amounts are exact decimal strings with ' +
      'their currency. `plant_id` must be a plant of the workspace (404).',
    scope: 'read:pricing',
    feature: 'pricing',
    failureCode: 'CULTURE_LINE_PRICE_QUERY_FAILED',
    errors: ['NOT_FOUND', 'FEATURE_CHECK_FAILED'],
    querystring: CultureLinePriceQuery,
    paging: { list: 'culture-line-prices' },
    item: CultureLinePrice,
    handler: (req, ctx) =>
      listCultureLinePrices(ctx.db, deps.records, ctx.principal.workspaceId, req.query, ctx.page),
  });

  routes.list({
    url: '/api/v1/pricing/events',
    operationId: 'listPriceEvents',
    tags: ['Pricing'],
    summary: 'List price changes',
    description:
      'Newest first by `changed_at`. `from`/`to` bound `changed_at`, both inclusive (`from` later ' +
      'than `to`: 422). The previous price may be in another currency. `plant_id` must be a ' +
      'plant of the workspace (404).',
    scope: 'read:pricing',
    feature: 'pricing',
    failureCode: 'CULTURE_LINE_PRICE_QUERY_FAILED',
    errors: ['NOT_FOUND', 'FEATURE_CHECK_FAILED'],
    querystring: PriceEventQuery,
    paging: { list: 'price-events' },
    item: PriceEvent,
    handler: (req, ctx) =>
      listPriceEvents(
        ctx.db,
        deps.records,
        ctx.principal.workspaceId,
        { plantId: req.query.plant_id, window: timeWindow(req.query) },
        ctx.page,
      ),
  });
}
