import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import type { BlobStore } from '../../files/blob-store.js';
import { IMAGE_MAX_BYTES } from '../../files/image-fetch.js';
import { sniffImage, type ImageType } from '../../files/sniff.js';
import { AppError, errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { assets, listAssetsOf, type AssetRow } from './assets.repository.js';
import type { Asset, AssetTarget, CreateAssetBody } from './assets.schemas.js';

export type AssetRecord = Static<typeof Asset>;

/** `view_url` lives 15 minutes and is signed anew for every response. */
export const VIEW_URL_TTL_SECONDS = 15 * 60;

/** Where asset bytes go and how an `image_url` is fetched (safely): handed in by the wiring. */
export interface AssetFiles {
  readonly store: BlobStore;
  /** Downloads `image_url` under the rules of the safe fetch (public https, 10 s, 10 MB). */
  fetch(url: string): Promise<Buffer>;
}

const NOUN: Record<AssetTarget, string> = {
  plant: 'plant',
  explant: 'explant',
  contamination: 'contamination log',
  sop: 'SOP',
};

async function requireTarget(
  db: Db,
  records: RecordLookup,
  workspaceId: string,
  target: AssetTarget,
  targetId: string,
  refusal: 'validation' | 'not-found',
): Promise<void> {
  if ((await records.find(db, target, workspaceId, targetId)) !== undefined) return;
  if (refusal === 'not-found') throw errors.notFound(`No ${NOUN[target]} with this target_id; it`);
  throw errors.validation(`target_id: no ${NOUN[target]} with this id in the workspace`);
}

const DATA_URL = /^data:[^,;]*(;[^,;]*)*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes of `image_base64`: a data-URL prefix and line breaks allowed, nothing else. */
function decodeBase64(text: string): Buffer {
  const bare = text.replace(DATA_URL, '').replace(/[\r\n\t ]/g, '');
  if (bare.length === 0 || bare.length % 4 === 1 || !BASE64.test(bare)) {
    throw errors.validation('image_base64: must be base64 (optionally with a data: URL prefix)');
  }
  return Buffer.from(bare, 'base64');
}

/** The last segment of the URL's path, when it makes a file name; else `photo`. */
function fileNameOf(imageUrl: string | undefined): string {
  if (imageUrl === undefined) return 'photo';
  const segment = new URL(imageUrl).pathname.split('/').pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(segment);
  } catch {
    name = segment;
  }
  name = name
    .replace(/\p{Cc}/gu, '')
    .trim()
    .slice(0, 200);
  return name === '' ? 'photo' : name;
}

/** What the prepare step leaves for the write: a stored blob and what the row needs. */
export interface PreparedAsset {
  readonly id: string;
  readonly key: string;
  readonly type: ImageType;
  readonly size: number;
  readonly fileName: string;
}

/**
 * The slow half of POST /assets, outside any transaction: checks the request and
 * its target, gets the bytes (decoded, or downloaded by the safe fetch), reads
 * their type from the bytes, and stores them under a key of their own.
 */
export async function prepareAsset(
  db: Db,
  principal: Principal,
  input: Static<typeof CreateAssetBody>,
  deps: { records: RecordLookup; files: AssetFiles },
): Promise<PreparedAsset> {
  if ((input.image_url === undefined) === (input.image_base64 === undefined)) {
    throw errors.validation('Send exactly one of image_url and image_base64');
  }
  const workspaceId = principal.workspaceId;
  await requireTarget(db, deps.records, workspaceId, input.target, input.target_id, 'validation');
  const bytes =
    input.image_base64 !== undefined
      ? decodeBase64(input.image_base64)
      : await deps.files.fetch(input.image_url!);
  if (bytes.length > IMAGE_MAX_BYTES) {
    throw errors.payloadTooLarge('The image is larger than 10 MB');
  }
  const type = await sniffImage(bytes);
  if (type === null) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'The file is not a JPEG, PNG, WebP or GIF image (the type is read from its content)',
    );
  }
  const id = newId();
  const key = `${workspaceId}/${id}.${type.ext}`;
  try {
    await deps.files.store.put(key, bytes, type.mime);
  } catch (error) {
    throw new AppError(
      'ASSET_UPLOAD_FAILED',
      'The image could not be stored; retry with the same Idempotency-Key',
      {},
      500,
      error,
    );
  }
  return {
    id,
    key,
    type,
    size: bytes.length,
    fileName: input.filename ?? fileNameOf(input.image_url),
  };
}

/** The quick half, in the transaction: the asset row. */
export async function insertAsset(
  trx: Trx,
  principal: Principal,
  input: Pick<Static<typeof CreateAssetBody>, 'target' | 'target_id' | 'caption'>,
  prepared: PreparedAsset,
  now: string,
): Promise<AssetRow> {
  const row: AssetRow = {
    id: prepared.id,
    workspace_id: principal.workspaceId,
    target: input.target,
    target_id: input.target_id,
    kind: 'photo',
    file_name: prepared.fileName,
    content_type: prepared.type.mime,
    byte_size: prepared.size,
    storage_key: prepared.key,
    caption: input.caption ?? null,
    captured_at: null,
    uploaded_by: principal.memberId,
    created_at: now,
  };
  await assets.insert(trx, row);
  return row;
}

/** The asset as the API shows it, with a fresh 15-minute link to its bytes. */
export async function presentAsset(store: BlobStore, row: AssetRow): Promise<AssetRecord> {
  const link = await store.signedUrl(row.storage_key, {
    ttlSeconds: VIEW_URL_TTL_SECONDS,
    contentType: row.content_type,
  });
  return {
    id: row.id,
    target: row.target as AssetTarget,
    target_id: row.target_id,
    kind: row.kind,
    file_name: row.file_name,
    content_type: row.content_type,
    caption: row.caption,
    captured_at: row.captured_at,
    uploaded_by: row.uploaded_by,
    created_at: row.created_at,
    view_url: link.url,
    view_url_expires_at: link.expiresAt.toISOString(),
  };
}

export async function getAsset(
  db: Db,
  store: BlobStore,
  workspaceId: string,
  id: string,
): Promise<AssetRecord> {
  const row = await assets.find(db, workspaceId, id);
  if (row === undefined) throw errors.notFound('Asset');
  return presentAsset(store, row);
}

/** The files of one record of the workspace, newest first; an unknown record is 404. */
export async function listAssets(
  db: Db,
  deps: { records: RecordLookup; files: AssetFiles },
  workspaceId: string,
  query: { target: AssetTarget; target_id: string },
  page: PageRequest,
): Promise<Page<AssetRecord>> {
  await requireTarget(db, deps.records, workspaceId, query.target, query.target_id, 'not-found');
  const { items, nextKey } = await listAssetsOf(
    db,
    workspaceId,
    query.target,
    query.target_id,
    page,
  );
  return {
    items: await Promise.all(items.map((row) => presentAsset(deps.files.store, row))),
    nextKey,
  };
}

/** A replayed create answers the first response with a freshly signed link. */
export async function refreshAsset(
  db: Db,
  store: BlobStore,
  workspaceId: string,
  stored: AssetRecord,
): Promise<AssetRecord> {
  const row = await assets.find(db, workspaceId, stored.id);
  return row === undefined ? stored : presentAsset(store, row);
}
