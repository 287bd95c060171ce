import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { Routes } from '../../kernel/routes/index.js';
import { Asset, AssetParams, AssetQuery, CreateAssetBody } from './assets.schemas.js';
import {
  getAsset,
  insertAsset,
  listAssets,
  prepareAsset,
  presentAsset,
  refreshAsset,
  type AssetFiles,
  type AssetRecord,
} from './assets.service.js';

export function registerAssetRoutes(
  routes: Routes,
  deps: { records: RecordLookup; files: AssetFiles },
): void {
  const { store } = deps.files;

  routes.list({
    url: '/api/v1/assets',
    operationId: 'listAssets',
    tags: ['Media files'],
    summary: 'List media files',
    description:
      'The files attached to one record, newest first. Each `view_url` works 15 minutes; list again for fresh links.',
    scope: 'read:assets',
    failureCode: 'ASSET_QUERY_FAILED',
    errors: ['NOT_FOUND'],
    querystring: AssetQuery,
    paging: { list: 'assets' },
    item: Asset,
    handler: (req, ctx) => listAssets(ctx.db, deps, ctx.principal.workspaceId, req.query, ctx.page),
  });

  routes.prepareAndWrite({
    method: 'POST',
    url: '/api/v1/assets',
    operationId: 'createAsset',
    tags: ['Media files'],
    summary: 'Attach a media file',
    description:
      'Attaches a JPEG, PNG, WebP or GIF image (type read from its content, at most 10 MB) to a ' +
      'plant, explant, contamination log or SOP. Send exactly one of `image_base64` (a data-URL ' +
      'prefix is accepted; the body is at most about 4.5 MB) or `image_url` (https, public ' +
      'internet only, no redirects, 10 s). A retry with the same Idempotency-Key answers the ' +
      'first response with a fresh `view_url`.',
    scope: 'write:assets',
    failureCode: 'ASSET_INSERT_FAILED',
    errors: ['UNSUPPORTED_MEDIA_TYPE', 'IMAGE_URL_FETCH_FAILED', 'ASSET_UPLOAD_FAILED'],
    body: CreateAssetBody,
    data: Asset,
    onReplay: async (payload, ctx) => ({
      ...payload,
      data: await refreshAsset(
        ctx.db,
        store,
        ctx.principal.workspaceId,
        payload.data as AssetRecord,
      ),
    }),
    prepare: (req, ctx) => prepareAsset(ctx.db, ctx.principal, req.body, deps),
    write: async (req, ctx, prepared) => {
      const row = await insertAsset(ctx.trx, ctx.principal, req.body, prepared, ctx.now);
      return { data: await presentAsset(store, row) };
    },
    // The row did not commit: its bytes must not stay behind.
    discard: (prepared) => store.delete(prepared.key),
  });

  routes.read({
    url: '/api/v1/assets/:id',
    operationId: 'getAsset',
    tags: ['Media files'],
    summary: 'Get a media file',
    description: 'With a `view_url` valid for 15 minutes from this response.',
    scope: 'read:assets',
    failureCode: 'ASSET_QUERY_FAILED',
    params: AssetParams,
    notFound: 'Asset',
    data: Asset,
    handler: async (req, ctx) => ({
      data: await getAsset(ctx.db, store, ctx.principal.workspaceId, req.params.id),
    }),
  });
}
