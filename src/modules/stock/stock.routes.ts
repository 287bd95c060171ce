import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { Routes } from '../../kernel/routes/index.js';
import {
  CreateStockItemBody,
  CreateStockLotBody,
  StockItem,
  StockItemParams,
  StockItemQuery,
  StockLot,
  StockLotParams,
  UpdateStockItemBody,
  UpdateStockLotBody,
} from './stock.schemas.js';
import {
  createStockItem,
  createStockLot,
  getStockItem,
  getStockLot,
  listStockItems,
  listStockLots,
  updateStockItem,
  updateStockLot,
} from './stock.service.js';

const STOCK =
  'Beyond the wire format: the chemicals, agar and vessels media batches are made from.';

const ALERTS =
  "A lot that falls below its item's reorder level, or is past its expiry, raises a task " +
  '(category media_prep) and a change-history event (`stock_lot.low`, `stock_lot.expired`) once.';

export function registerStockRoutes(routes: Routes, deps: { records: RecordLookup }): void {
  routes.list({
    url: '/api/v1/stock-items',
    operationId: 'listStockItems',
    tags: ['Stock'],
    summary: 'List stock items',
    description: `${STOCK} Newest first, optionally of one \`category\`.`,
    scope: 'read:stock',
    failureCode: 'STOCK_QUERY_FAILED',
    querystring: StockItemQuery,
    paging: { list: 'stock-items' },
    item: StockItem,
    handler: (req, ctx) => listStockItems(ctx.db, ctx.principal.workspaceId, req.query, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/stock-items',
    operationId: 'createStockItem',
    tags: ['Stock'],
    summary: 'Create a stock item',
    description:
      `${STOCK} Its \`unit\` counts its lots and its \`reorder_level\`. Managers and up: ` +
      'the catalogue and its reorder levels are the lab’s purchasing decisions.',
    scope: 'write:stock',
    role: 'manager',
    failureCode: 'STOCK_WRITE_FAILED',
    body: CreateStockItemBody,
    data: StockItem,
    handler: async (req, ctx) => ({
      data: await createStockItem(ctx.trx, ctx.principal, req.body, ctx.now),
    }),
  });

  routes.read({
    url: '/api/v1/stock-items/:id',
    operationId: 'getStockItem',
    tags: ['Stock'],
    summary: 'Get a stock item',
    description: STOCK,
    scope: 'read:stock',
    failureCode: 'STOCK_QUERY_FAILED',
    params: StockItemParams,
    notFound: 'Stock item',
    data: StockItem,
    handler: async (req, ctx) => ({
      data: await getStockItem(ctx.db, ctx.principal.workspaceId, req.params.id),
    }),
  });

  routes.write({
    method: 'PATCH',
    url: '/api/v1/stock-items/:id',
    operationId: 'updateStockItem',
    tags: ['Stock'],
    summary: 'Update a stock item',
    description: `${STOCK} Partial; its unit stays. Managers and up.`,
    scope: 'write:stock',
    role: 'manager',
    failureCode: 'STOCK_WRITE_FAILED',
    params: StockItemParams,
    notFound: 'Stock item',
    body: UpdateStockItemBody,
    data: StockItem,
    current: (req, ctx) => getStockItem(ctx.trx, ctx.principal.workspaceId, req.params.id),
    handler: async (req, ctx) => ({
      data: await updateStockItem(
        ctx.trx,
        ctx.principal.workspaceId,
        req.params.id,
        req.body,
        ctx.now,
      ),
    }),
  });

  routes.list({
    url: '/api/v1/stock-items/:id/lots',
    operationId: 'listStockLots',
    tags: ['Stock'],
    summary: "List a stock item's lots",
    description: `${STOCK} Newest first, each with what it still holds.`,
    scope: 'read:stock',
    failureCode: 'STOCK_QUERY_FAILED',
    params: StockItemParams,
    notFound: 'Stock item',
    paging: { list: 'stock-lots' },
    item: StockLot,
    handler: (req, ctx) =>
      listStockLots(ctx.db, ctx.principal.workspaceId, req.params.id, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/stock-items/:id/lots',
    operationId: 'createStockLot',
    tags: ['Stock'],
    summary: 'Receive a lot of a stock item',
    description:
      `${STOCK} Its \`unit\` is the item's unless sent, and then must convert to it (mg for an ` +
      `item in g; 422 otherwise). ${ALERTS} Any member: receiving a delivery is bench work.`,
    scope: 'write:stock',
    failureCode: 'STOCK_WRITE_FAILED',
    params: StockItemParams,
    notFound: 'Stock item',
    body: CreateStockLotBody,
    data: StockLot,
    handler: async (req, ctx) => ({
      data: await createStockLot(
        ctx.trx,
        ctx.principal,
        req.params.id,
        req.body,
        deps.records,
        ctx.now,
      ),
    }),
  });

  routes.read({
    url: '/api/v1/stock-items/:id/lots/:lotId',
    operationId: 'getStockLot',
    tags: ['Stock'],
    summary: 'Get a lot of a stock item',
    description: STOCK,
    scope: 'read:stock',
    failureCode: 'STOCK_QUERY_FAILED',
    params: StockLotParams,
    notFound: 'Stock lot',
    data: StockLot,
    handler: async (req, ctx) => ({
      data: await getStockLot(ctx.db, ctx.principal.workspaceId, req.params.id, req.params.lotId),
    }),
  });

  routes.write({
    method: 'PATCH',
    url: '/api/v1/stock-items/:id/lots/:lotId',
    operationId: 'updateStockLot',
    tags: ['Stock'],
    summary: 'Update a lot of a stock item',
    description: `${STOCK} Partial: a count of what it holds now, a corrected date. ${ALERTS} Any member.`,
    scope: 'write:stock',
    failureCode: 'STOCK_WRITE_FAILED',
    params: StockLotParams,
    notFound: 'Stock lot',
    body: UpdateStockLotBody,
    data: StockLot,
    current: (req, ctx) =>
      getStockLot(ctx.trx, ctx.principal.workspaceId, req.params.id, req.params.lotId),
    handler: async (req, ctx) => ({
      data: await updateStockLot(
        ctx.trx,
        ctx.principal,
        { itemId: req.params.id, lotId: req.params.lotId },
        req.body,
        deps.records,
        ctx.now,
      ),
    }),
  });
}
