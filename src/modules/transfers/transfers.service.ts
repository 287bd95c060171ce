import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { errors } from '../../kernel/errors.js';
import { toUtc } from '../../kernel/formats.js';
import { newId } from '../../kernel/ids.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup, RecordRefs } from '../../kernel/record-lookup.js';
import { INT32_MAX } from '../../kernel/schemas.js';
import { nowIso } from '../../kernel/time.js';
import { recordOrGather, type EntityType, type NewChangeEvent } from '../events/index.js';
import {
  applyExplantTransfer,
  type ExplantCounts,
  type ExplantTransferUpdate,
} from '../explants/index.js';
import { requireUsableMediaBatch } from '../media-batches/index.js';
import { applyCustomFields, customFieldsOf, targetOf } from '../records/index.js';
import {
  CYCLE_INDEX,
  findHighestCycle,
  isCycleTaken,
  listTransfers as listTransferRows,
  transfers,
  type RecordParams,
  type TransferRow,
} from './transfers.repository.js';
import type { CreateTransferBody, Transfer } from './transfers.schemas.js';

export type TransferRecord = Static<typeof Transfer>;
export type CreateTransferInput = Static<typeof CreateTransferBody>;

const TITLE: Record<EntityType, string> = { plant: 'Plant', explant: 'Explant' };

/** The record lookup as a transfer uses it: an explant comes with its counts. */
export type TransferRecords = RecordLookup<RecordRefs & { readonly explant: ExplantCounts }>;

export function presentTransfer(row: TransferRow): TransferRecord {
  return {
    id: row.id,
    entity_type: row.entity_type as EntityType,
    entity_id: row.entity_id,
    transfer_date: row.transfer_date,
    transfer_cycle: row.transfer_cycle,
    from_location: row.from_location,
    to_location: row.to_location,
    status: row.status,
    notes: row.notes,
    created_at: row.created_at,
    custom_fields: customFieldsOf(row.custom_fields),
    vessel_count: row.vessel_count,
    plantlet_count: row.plantlet_count,
    // Only on a transfer that names one: the others answer exactly as before.
    ...(row.media_batch_id === null ? {} : { media_batch_id: row.media_batch_id }),
  };
}

const cycleTaken = (cycle: number, entity: EntityType) =>
  errors.validation(`transfer_cycle: cycle ${cycle} is already recorded for this ${entity}`);

/** What only an explant transfer may carry: counts (decision 5) and custom fields. */
function refuseExplantOnlyFields(input: CreateTransferInput): void {
  for (const field of ['vessel_count', 'plantlet_count'] as const) {
    if (input[field] !== undefined) {
      throw errors.validation(`${field}: only explant transfers carry counts`);
    }
  }
  if (input.custom_fields != null && Object.keys(input.custom_fields).length > 0) {
    throw errors.validation('custom_fields: only explant transfers carry custom fields');
  }
}

/** The cycle sent (refused when the record already has it), else the highest + 1. */
async function cycleOf(
  trx: Trx,
  record: RecordParams & { entityType: EntityType },
  sent: number | undefined,
  known: number | undefined,
): Promise<number> {
  if (sent !== undefined) {
    if (await isCycleTaken(trx, record, sent)) throw cycleTaken(sent, record.entityType);
    return sent;
  }
  const highest = known ?? (await findHighestCycle(trx, record));
  if (highest >= INT32_MAX) {
    throw errors.validation(
      `transfer_cycle: this ${record.entityType} has reached the highest cycle; send a free one`,
    );
  }
  return highest + 1;
}

/**
 * Records a transfer of a plant or explant (POST /transfers) in the caller's
 * transaction: checks everything first, then writes the transfer and its
 * `transfer` event, and applies an explant transfer's counts to the explant
 * (with an `updated` event when they change). The record is locked, so
 * concurrent transfers of one record queue and never share a cycle.
 *
 * Any member may record a transfer on any plant or explant of the workspace:
 * it records bench work (who did it is in the history), unlike PATCH and stage
 * moves, which change another member's record and need a manager.
 */
export async function createTransfer(
  trx: Trx,
  principal: Principal,
  input: CreateTransferInput,
  records: TransferRecords,
  now: string,
): Promise<TransferRecord> {
  return (await recordTransfer(trx, principal, input, records, now)).transfer;
}

/**
 * `createTransfer` as a larger write uses it (a split): `explant` is the explant the
 * caller has locked already (not read again), `events` gathers the transfer's events
 * for the caller to record with its own, `highestCycle` is the explant's highest cycle
 * as the caller read it after locking it (not read again); the answer says too which
 * columns of the explant changed.
 */
export async function recordTransfer(
  trx: Trx,
  principal: Principal,
  input: CreateTransferInput,
  records: TransferRecords,
  now: string,
  options: { explant?: ExplantCounts; events?: NewChangeEvent[]; highestCycle?: number } = {},
): Promise<{ transfer: TransferRecord; explantUpdate: ExplantTransferUpdate }> {
  const target = targetOf(input);
  if (target.entity === 'plant') refuseExplantOnlyFields(input);
  const workspaceId = principal.workspaceId;

  // Concurrent transfers of one record queue here (PostgreSQL; SQLite has one writer).
  // The explant's row is kept: its counts change below without reading it again.
  const explant =
    target.entity !== 'explant'
      ? null
      : options.explant?.id === target.id
        ? options.explant
        : await records.lock(trx, 'explant', workspaceId, target.id);
  const plant =
    target.entity === 'plant' ? await records.lock(trx, 'plant', workspaceId, target.id) : null;
  if (explant === undefined || plant === undefined) throw errors.notFound(TITLE[target.entity]);
  const customFields =
    target.entity === 'explant'
      ? await applyCustomFields(trx, workspaceId, 'transfer', {}, input.custom_fields)
      : {};
  if (input.media_batch_id !== undefined) {
    await requireUsableMediaBatch(trx, workspaceId, input.media_batch_id, 'media_batch_id', now);
  }
  const record = { workspaceId, entityType: target.entity, entityId: target.id };
  const cycle = await cycleOf(trx, record, input.transfer_cycle, options.highestCycle);
  // Read once the record is locked, as for stage moves: a transfer that queued behind
  // another is never dated before it.
  const transferDate = input.transfer_date === undefined ? nowIso() : toUtc(input.transfer_date);

  const row: TransferRow = {
    id: newId(),
    workspace_id: workspaceId,
    entity_type: target.entity,
    entity_id: target.id,
    transfer_date: transferDate,
    transfer_cycle: cycle,
    from_location: input.from_location ?? null,
    to_location: input.to_location ?? null,
    status: input.status ?? 'completed',
    notes: input.notes ?? null,
    vessel_count: input.vessel_count ?? null,
    plantlet_count: input.plantlet_count ?? null,
    custom_fields: JSON.stringify(customFields),
    created_by: principal.memberId,
    created_at: now,
    media_batch_id: input.media_batch_id ?? null,
  };
  try {
    await transfers.insert(trx, row);
  } catch (error) {
    if (isUniqueViolation(error, CYCLE_INDEX)) throw cycleTaken(cycle, target.entity);
    throw error;
  }
  const transferEvent: NewChangeEvent = {
    workspaceId,
    entityType: target.entity,
    entityId: target.id,
    eventType: 'transfer',
    eventTime: transferDate,
    recordedBy: principal.memberId,
    payload: {
      transfer_id: row.id,
      transfer_cycle: cycle,
      transfer_date: transferDate,
      status: row.status,
      from_location: row.from_location,
      to_location: row.to_location,
      observed_vessel_count: row.vessel_count,
      plantlet_count: row.plantlet_count,
      notes: row.notes,
      // Only when sent: the events of transfers that name no batch stay as they were.
      ...(row.media_batch_id === null ? {} : { media_batch_id: row.media_batch_id }),
    },
  };
  // The explant's own change (its counts, its subculture) is the explants module's,
  // handed the row locked above; both events are recorded together.
  const applied =
    explant === null
      ? { event: null, update: {} }
      : await applyExplantTransfer(trx, explant, {
          workspaceId,
          counts: {
            ...(row.vessel_count === null ? {} : { current_count: row.vessel_count }),
            ...(row.plantlet_count === null ? {} : { plantlet_count: row.plantlet_count }),
          },
          subculturedAt: row.status === 'completed' ? transferDate : null,
          mediaBatchId: row.media_batch_id,
          transferId: row.id,
          by: principal.memberId,
          at: now,
        });
  await recordOrGather(
    trx,
    applied.event === null ? [transferEvent] : [transferEvent, applied.event],
    options.events,
  );
  return { transfer: presentTransfer(row), explantUpdate: applied.update };
}

/** Transfers of one plant or explant, newest first by transfer date. */
export async function listTransfersOf(
  db: Db,
  workspaceId: string,
  query: { plant_id?: string; explant_id?: string },
  records: RecordLookup,
  page: PageRequest,
): Promise<Page<TransferRecord>> {
  const target = targetOf(query);
  if ((await records.find(db, target.entity, workspaceId, target.id)) === undefined) {
    throw errors.notFound(TITLE[target.entity]);
  }
  const { items, nextKey } = await listTransferRows(
    db,
    { workspaceId, entityType: target.entity, entityId: target.id },
    page,
  );
  return { items: items.map(presentTransfer), nextKey };
}
