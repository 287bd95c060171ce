import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { Routes } from '../../kernel/routes/index.js';
import {
  CreateMediaBatchBody,
  MediaBatch,
  MediaBatchCulture,
  MediaBatchParams,
  MediaBatchQuery,
  UpdateMediaBatchBody,
} from './media-batches.schemas.js';
import {
  createMediaBatch,
  getMediaBatch,
  listMediaBatchCultures,
  listMediaBatches,
  updateMediaBatch,
} from './media-batches.service.js';

const BATCHES =
  'Beyond the wire format: a batch of medium made from a recipe’s version, which transfers, ' +
  'splits and new explants name (`media_batch_id`).';

export function registerMediaBatchRoutes(routes: Routes, deps: { records: RecordLookup }): void {
  routes.list({
    url: '/api/v1/media-batches',
    operationId: 'listMediaBatches',
    tags: ['Media batches'],
    summary: 'List media batches',
    description: `${BATCHES} Newest first, optionally of one \`status\`, recipe or preparer.`,
    scope: 'read:media_batches',
    failureCode: 'MEDIA_BATCH_QUERY_FAILED',
    querystring: MediaBatchQuery,
    paging: { list: 'media-batches' },
    item: MediaBatch,
    handler: (req, ctx) => listMediaBatches(ctx.db, ctx.principal.workspaceId, req.query, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/media-batches',
    operationId: 'createMediaBatch',
    tags: ['Media batches'],
    summary: 'Make a media batch',
    description:
      `${BATCHES} From \`recipe_id\` (a recipe the caller sees) at \`recipe_version\` (default ` +
      'its current one), prepared by the caller unless `prepared_by` names another active ' +
      'member, autoclaved in `autoclave_event_id` (an equipment event of the lab). Each ' +
      "component's `amount` is taken from its `lot_id` (converted to the lot's unit by mathjs " +
      'units): a lot of another lab, more than the lot holds, or a unit that does not convert ' +
      "is a 422 naming the component, and nothing is written. A lot left below its item's " +
      'reorder level raises a task and a `stock_lot.low` event. Any member: bench work.',
    scope: 'write:media_batches',
    failureCode: 'MEDIA_BATCH_WRITE_FAILED',
    body: CreateMediaBatchBody,
    data: MediaBatch,
    handler: async (req, ctx) => ({
      data: await createMediaBatch(ctx.trx, ctx.principal, req.body, deps.records, ctx.now),
    }),
  });

  routes.read({
    url: '/api/v1/media-batches/:id',
    operationId: 'getMediaBatch',
    tags: ['Media batches'],
    summary: 'Get a media batch',
    description: BATCHES,
    scope: 'read:media_batches',
    failureCode: 'MEDIA_BATCH_QUERY_FAILED',
    params: MediaBatchParams,
    notFound: 'Media batch',
    data: MediaBatch,
    handler: async (req, ctx) => ({
      data: await getMediaBatch(ctx.db, ctx.principal.workspaceId, req.params.id),
    }),
  });

  routes.write({
    method: 'PATCH',
    url: '/api/v1/media-batches/:id',
    operationId: 'updateMediaBatch',
    tags: ['Media batches'],
    summary: 'Update a media batch',
    description:
      `${BATCHES} Partial: its status (ready, used_up, expired, discarded), measured pH, ` +
      'autoclave run, expiry, notes. Its recipe and components stay (their stock was taken ' +
      'when it was made). Any member. An expired or discarded batch, or one past ' +
      '`expires_at`, can no longer be named by a transfer, split or new explant.',
    scope: 'write:media_batches',
    failureCode: 'MEDIA_BATCH_WRITE_FAILED',
    params: MediaBatchParams,
    notFound: 'Media batch',
    body: UpdateMediaBatchBody,
    data: MediaBatch,
    current: (req, ctx) => getMediaBatch(ctx.trx, ctx.principal.workspaceId, req.params.id),
    handler: async (req, ctx) => ({
      data: await updateMediaBatch(
        ctx.trx,
        ctx.principal.workspaceId,
        req.params.id,
        req.body,
        ctx.now,
      ),
    }),
  });

  routes.list({
    url: '/api/v1/media-batches/:id/explants',
    operationId: 'listMediaBatchExplants',
    tags: ['Media batches'],
    summary: 'List the cultures on a media batch',
    description:
      `${BATCHES} The explants put on it, newest first: started on it (created or split onto ` +
      'it) or moved onto it by a transfer naming it; each says the batch it is on now.',
    scope: 'read:media_batches',
    failureCode: 'MEDIA_BATCH_QUERY_FAILED',
    params: MediaBatchParams,
    notFound: 'Media batch',
    paging: { list: 'media-batch-explants' },
    item: MediaBatchCulture,
    handler: (req, ctx) =>
      listMediaBatchCultures(ctx.db, ctx.principal.workspaceId, req.params.id, ctx.page),
  });
}
