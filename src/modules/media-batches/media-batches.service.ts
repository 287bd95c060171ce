import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import type { Page, PageRequest } from '../../db/pages.js';
import { errors } from '../../kernel/errors.js';
import { toUtc } from '../../kernel/formats.js';
import { newId } from '../../kernel/ids.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { changedValues, diffFields } from '../../lib/changes.js';
import { equipmentEvents } from '../equipment/index.js';
import { isActiveMember } from '../identity/index.js';
import { phCenti, recipeVersionFor } from '../media-recipes/index.js';
import { takeFromLots } from '../stock/index.js';
import {
  listCultureRows,
  listMediaBatchRows,
  mediaBatches,
  type MediaBatchFilters,
  type MediaBatchRow,
} from './media-batches.repository.js';
import {
  UNUSABLE_BATCH_STATUSES,
  type CreateMediaBatchBody,
  type MediaBatch,
  type MediaBatchCulture,
  type UpdateMediaBatchBody,
} from './media-batches.schemas.js';

export type MediaBatchRecord = Static<typeof MediaBatch>;
type CultureRecord = Static<typeof MediaBatchCulture>;
type Component = MediaBatchRecord['components'][number];
type UpdateInput = Static<typeof UpdateMediaBatchBody>;

const notFound = () => errors.notFound('Media batch');

export function presentMediaBatch(row: MediaBatchRow): MediaBatchRecord {
  return {
    id: row.id,
    recipe_id: row.recipe_id,
    recipe_version: row.recipe_version,
    volume_ml: row.volume_ml,
    ph_measured: row.ph_measured_centi === null ? null : row.ph_measured_centi / 100,
    prepared_by: row.prepared_by,
    prepared_at: row.prepared_at,
    autoclave_event_id: row.autoclave_event_id,
    expires_at: row.expires_at,
    status: row.status,
    components: JSON.parse(row.components) as Component[],
    notes: row.notes,
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The member who made the batch: an active member of the workspace (422 otherwise). */
async function requirePreparer(db: Db, workspaceId: string, memberId: string): Promise<void> {
  if (!(await isActiveMember(db, workspaceId, memberId))) {
    throw errors.validation('prepared_by: no active member with this id in the workspace');
  }
}

/** The autoclave run: an event of the workspace's equipment (422 otherwise). */
async function requireAutoclaveEvent(db: Db, workspaceId: string, id: string): Promise<void> {
  if ((await equipmentEvents.find(db, workspaceId, id)) === undefined) {
    throw errors.validation('autoclave_event_id: no equipment event with this id in the workspace');
  }
}

/**
 * Makes a media batch (POST /media-batches) from a recipe the caller sees and its
 * version (default the current one), prepared by the caller unless another active
 * member is named, autoclaved in an equipment event of the lab when one is named.
 * Each component's amount is taken from its stock lot (converted to the lot's unit),
 * which may raise low-stock tasks and events. Everything is checked before the
 * first write.
 */
export async function createMediaBatch(
  trx: Trx,
  principal: Principal,
  input: Static<typeof CreateMediaBatchBody>,
  records: RecordLookup,
  now: string,
): Promise<MediaBatchRecord> {
  const workspaceId = principal.workspaceId;
  const recipe = await recipeVersionFor(trx, principal, input.recipe_id, input.recipe_version);
  const preparedBy = input.prepared_by ?? principal.memberId;
  if (preparedBy === null) throw errors.validation('prepared_by: required for this credential');
  await requirePreparer(trx, workspaceId, preparedBy);
  if (input.autoclave_event_id != null) {
    await requireAutoclaveEvent(trx, workspaceId, input.autoclave_event_id);
  }
  const components = (input.components ?? []).map((c) => ({
    name: c.name,
    lot_id: c.lot_id ?? null,
    amount: c.amount,
    unit: c.unit,
  }));
  await takeFromLots(trx, principal, components, 'components', records, now);
  const row: MediaBatchRow = {
    id: newId(),
    workspace_id: workspaceId,
    recipe_id: recipe.id,
    recipe_version: recipe.version,
    volume_ml: input.volume_ml,
    ph_measured_centi: phCenti(input.ph_measured ?? null),
    prepared_by: preparedBy,
    prepared_at: input.prepared_at === undefined ? now : toUtc(input.prepared_at),
    autoclave_event_id: input.autoclave_event_id ?? null,
    expires_at: input.expires_at == null ? null : toUtc(input.expires_at),
    status: input.status ?? 'ready',
    components: JSON.stringify(components),
    notes: input.notes ?? null,
    created_by: principal.memberId,
    created_at: now,
    updated_at: now,
  };
  await mediaBatches.insert(trx, row);
  return presentMediaBatch(row);
}

export async function getMediaBatch(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<MediaBatchRecord> {
  const row = await mediaBatches.find(db, workspaceId, id);
  if (row === undefined) throw notFound();
  return presentMediaBatch(row);
}

export async function listMediaBatches(
  db: Db,
  workspaceId: string,
  filters: MediaBatchFilters,
  page: PageRequest,
): Promise<Page<MediaBatchRecord>> {
  const { items, nextKey } = await listMediaBatchRows(db, workspaceId, filters, page);
  return { items: items.map(presentMediaBatch), nextKey };
}

/**
 * Partial update (its status as it is used up, expires or is discarded; a measured
 * pH; the autoclave run once recorded). Its recipe and components stay: their stock
 * was taken when it was made.
 */
export async function updateMediaBatch(
  trx: Trx,
  workspaceId: string,
  id: string,
  input: UpdateInput,
  now: string,
): Promise<MediaBatchRecord> {
  const row = await mediaBatches.lock(trx, workspaceId, id);
  if (row === undefined) throw notFound();
  if (input.prepared_by !== undefined) await requirePreparer(trx, workspaceId, input.prepared_by);
  if (input.autoclave_event_id != null) {
    await requireAutoclaveEvent(trx, workspaceId, input.autoclave_event_id);
  }
  const values: Partial<MediaBatchRow> = {
    volume_ml: input.volume_ml,
    ph_measured_centi: input.ph_measured === undefined ? undefined : phCenti(input.ph_measured),
    prepared_by: input.prepared_by,
    prepared_at: input.prepared_at === undefined ? undefined : toUtc(input.prepared_at),
    autoclave_event_id: input.autoclave_event_id,
    expires_at:
      input.expires_at === undefined || input.expires_at === null
        ? input.expires_at
        : toUtc(input.expires_at),
    status: input.status,
    notes: input.notes,
  };
  // Every field set above is one a PATCH may change.
  const changes = diffFields(row, values, Object.keys(values) as (keyof MediaBatchRow)[]);
  if (Object.keys(changes).length === 0) return presentMediaBatch(row);
  const update = { ...(changedValues(changes) as Partial<MediaBatchRow>), updated_at: now };
  await mediaBatches.update(trx, workspaceId, id, update);
  return presentMediaBatch({ ...row, ...update });
}

/** The explants put on a batch (started on it, or transferred onto it), newest first. */
export async function listMediaBatchCultures(
  db: Db,
  workspaceId: string,
  id: string,
  page: PageRequest,
): Promise<Page<CultureRecord>> {
  if ((await mediaBatches.find(db, workspaceId, id)) === undefined) throw notFound();
  return listCultureRows(db, workspaceId, id, page);
}

/**
 * A batch cultures may be put on (a transfer, a split's daughter, a new explant
 * naming `media_batch_id`): a batch of the workspace, not expired or discarded and
 * not past its `expires_at` (422 naming `field`).
 */
export async function requireUsableMediaBatch(
  db: Db,
  workspaceId: string,
  id: string,
  field: string,
  now: string,
): Promise<void> {
  const row = await mediaBatches.find(db, workspaceId, id);
  if (row === undefined) {
    throw errors.validation(`${field}: no media batch with this id in the workspace`);
  }
  if (row.status === 'discarded') {
    throw errors.validation(`${field}: the media batch is discarded`);
  }
  // Its expiry before its status: the same answer whether or not the expiry pass has
  // marked it expired yet.
  if (row.expires_at !== null && row.expires_at <= now) {
    throw errors.validation(`${field}: the media batch expired at ${row.expires_at}`);
  }
  if ((UNUSABLE_BATCH_STATUSES as readonly string[]).includes(row.status)) {
    throw errors.validation(`${field}: the media batch is ${row.status}`);
  }
}
