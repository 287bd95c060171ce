import Type from 'typebox';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { Routes } from '../../kernel/routes/index.js';
import { PageMeta } from '../../kernel/schemas.js';
import { timeWindow } from '../../kernel/window.js';
import {
  OrderLine,
  OrderLineQuery,
  SELL_THROUGH_DEFAULT_LIMIT,
  SELL_THROUGH_MAX_LIMIT,
  SellThroughGroup,
  SellThroughQuery,
} from './commerce.schemas.js';
import { getSellThrough, listOrderLines } from './commerce.service.js';

export function registerCommerceRoutes(routes: Routes, deps: { records: RecordLookup }): void {
  routes.list({
    url: '/api/v1/commerce/order-lines',
    operationId: 'listOrderLines',
    tags: ['Sell-through'],
    summary: 'List store order lines',
    description:
      'Most recent first by `occurred_at` (lines without one last). `from`/`to` bound ' +
      '`occurred_at`, both inclusive (`from` later than `to`: 422). No buyer data, no store order ' +
      'numbers; amounts are exact decimal strings, never summed. `product_link_id` must be a ' +
      'product link that an order line of the workspace names (404).',
    scope: 'read:commerce',
    feature: 'commerce',
    failureCode: 'SELL_THROUGH_EVENT_QUERY_FAILED',
    errors: ['NOT_FOUND', 'FEATURE_CHECK_FAILED'],
    querystring: OrderLineQuery,
    paging: { list: 'order-lines' },
    item: OrderLine,
    handler: (req, ctx) =>
      listOrderLines(
        ctx.db,
        ctx.principal.workspaceId,
        { window: timeWindow(req.query), productLinkId: req.query.product_link_id },
        ctx.page,
      ),
  });

  routes.read({
    url: '/api/v1/commerce/sell-through',
    operationId: 'getSellThrough',
    tags: ['Sell-through'],
    summary: 'Get sell-through summary',
    description:
      'One group per culture line (plant_id) and currency, highest units first. Revenue is the ' +
      'exact decimal sum of quantity × unit price in that currency; there is no cross-currency ' +
      'total. `from`/`to` bound `occurred_at`, both inclusive. One page per request: no cursor ' +
      '(`meta.next_cursor` is always null); `limit`/`offset` window the groups. `plant_id` must ' +
      'be a plant of the workspace (404).',
    scope: 'read:commerce',
    feature: 'commerce',
    failureCode: 'SELL_THROUGH_EVENT_QUERY_FAILED',
    errors: ['NOT_FOUND', 'FEATURE_CHECK_FAILED'],
    querystring: SellThroughQuery,
    data: Type.Array(SellThroughGroup),
    meta: PageMeta,
    metaRequired: true,
    handler: async (req, ctx) => ({
      data: await getSellThrough(
        ctx.db,
        deps.records,
        ctx.principal.workspaceId,
        { window: timeWindow(req.query), plantId: req.query.plant_id },
        {
          limit: Math.min(req.query.limit ?? SELL_THROUGH_DEFAULT_LIMIT, SELL_THROUGH_MAX_LIMIT),
          offset: req.query.offset ?? 0,
        },
      ),
      meta: { next_cursor: null },
    }),
  });
}
