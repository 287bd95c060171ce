import type { Static } from 'typebox';
import type { Trx } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import type { Principal } from '../../kernel/principal.js';
import { recordChangeEvent } from '../events/index.js';
import {
  addExplantParents,
  createExplant,
  getExplant,
  type ExplantFamilyRow,
  type ExplantRecord,
} from '../explants/index.js';
import { requireUsableMediaBatch } from '../media-batches/index.js';
import { createTransfer } from '../transfers/index.js';
import { lockExplants, requireLiving, type LineageRecords } from './family.js';
import { descendsFrom, insertEdges } from './lineage.repository.js';
import type { MergeBody } from './lineage.schemas.js';

type MergeInput = Static<typeof MergeBody>;

/** How far a merge looks for a loop: further than any family of a lab goes. */
const LOOP_SEARCH_DEPTH = 10_000;

/** Exactly one of `label` (a new explant) and `into_explant_id`, and the ids once each. */
function checkShape(input: MergeInput): void {
  if ((input.label === undefined) === (input.into_explant_id === undefined)) {
    throw errors.validation(
      'label, into_explant_id: send one of them (a new explant, or one they go into)',
    );
  }
  const seen = new Set<string>();
  input.explant_ids.forEach((id, i) => {
    if (seen.has(id)) throw errors.validation(`explant_ids[${i}]: named twice`);
    seen.add(id);
  });
  const into = input.into_explant_id;
  if (into !== undefined && seen.has(into)) {
    throw errors.validation(
      'into_explant_id: is also in explant_ids; an explant cannot be its own parent',
    );
  }
  if (input.label === undefined) {
    for (const field of ['initial_stage', 'room_id'] as const) {
      if (input[field] !== undefined) {
        throw errors.validation(`${field}: only for a new explant (with label)`);
      }
    }
  }
}

/** The value all of them share, else null. */
function shared<T>(
  rows: readonly ExplantFamilyRow[],
  pick: (row: ExplantFamilyRow) => T | null,
): T | null {
  const first = pick(rows[0]!);
  return rows.every((row) => pick(row) === first) ? first : null;
}

const total = (
  rows: readonly ExplantFamilyRow[],
  pick: (row: ExplantFamilyRow) => number | null,
) =>
  rows.some((row) => pick(row) !== null)
    ? rows.reduce((sum, row) => sum + (pick(row) ?? 0), 0)
    : null;

/**
 * Pools explants into one (POST /explants/merge), in the caller's transaction: a new
 * explant (`label`) or one that exists (`into_explant_id`), which gets all their
 * vessels and plantlets. Each pooled explant is locked and checked (living; for an
 * existing child, the child may not be among its ancestors: the family would loop),
 * then gets a transfer as POST /transfers records one that leaves it no vessels (and
 * no plantlets, when they were counted); the child is created (a `created` event) or
 * gets the vessels through a transfer of its own; one edge per pooled explant keeps
 * the family, and a `merged` event on the child names them.
 */
export async function mergeExplants(
  trx: Trx,
  principal: Principal,
  input: MergeInput,
  records: LineageRecords,
  now: string,
): Promise<{ child: ExplantRecord; parents: ExplantRecord[] }> {
  checkShape(input);
  const workspaceId = principal.workspaceId;
  const intoId = input.into_explant_id;
  const lockIds = intoId === undefined ? input.explant_ids : [...input.explant_ids, intoId];
  const batchId = input.media_batch_id;
  if (batchId !== undefined) {
    await requireUsableMediaBatch(trx, workspaceId, batchId, 'media_batch_id', now);
  }
  const locked = await lockExplants(trx, records, workspaceId, lockIds, 'explant_ids');
  const pooled = input.explant_ids.map((id) => locked.get(id)!);
  input.explant_ids.forEach((_, i) => requireLiving(pooled[i]!, `explant_ids[${i}]`));
  const into = intoId === undefined ? null : locked.get(intoId)!;
  if (into !== null) {
    requireLiving(into, 'into_explant_id');
    const already = JSON.parse(into.parent_explant_ids) as string[];
    const again = input.explant_ids.findIndex((id) => already.includes(id));
    if (again >= 0) {
      throw errors.validation(`explant_ids[${again}]: is already a parent of into_explant_id`);
    }
    // The child must not be an ancestor of any pooled explant: that edge would close a loop.
    for (const [i, id] of input.explant_ids.entries()) {
      if ((await descendsFrom(trx, workspaceId, id, [into.id], LOOP_SEARCH_DEPTH)) !== null) {
        throw errors.validation(
          `explant_ids[${i}]: descends from into_explant_id; pooling it there would make the family a loop`,
        );
      }
    }
  }
  const vessels = total(pooled, (row) => row.current_count);
  const plantlets = total(pooled, (row) => row.plantlet_count);
  const notes = input.notes ?? 'Pooled';

  const transfers = new Map<string, string>();
  let occurredAt = now;
  for (const row of pooled) {
    const transfer = await createTransfer(
      trx,
      principal,
      {
        explant_id: row.id,
        vessel_count: 0,
        ...(row.plantlet_count === null ? {} : { plantlet_count: 0 }),
        notes,
      },
      records,
      now,
    );
    transfers.set(row.id, transfer.id);
    occurredAt = transfer.transfer_date ?? now;
  }

  let childId: string;
  if (into === null) {
    const stage = input.initial_stage ?? shared(pooled, (row) => row.current_stage) ?? undefined;
    const child = await createExplant(
      trx,
      principal,
      {
        label: input.label!,
        plant_id: shared(pooled, (row) => row.plant_id),
        initial_count: vessels,
        plantlet_count: plantlets,
        ...(input.notes === undefined ? {} : { notes: input.notes }),
        ...(stage === undefined ? {} : { initial_stage: stage }),
        ...(input.room_id === undefined ? {} : { room_id: input.room_id }),
        ...(batchId === undefined ? {} : { media_batch_id: batchId }),
      },
      now,
      records,
      { parentIds: input.explant_ids },
    );
    childId = child.id;
  } else {
    childId = into.id;
    const counts = {
      ...(into.current_count === null && vessels === null
        ? {}
        : { vessel_count: (into.current_count ?? 0) + (vessels ?? 0) }),
      ...(into.plantlet_count === null && plantlets === null
        ? {}
        : { plantlet_count: (into.plantlet_count ?? 0) + (plantlets ?? 0) }),
    };
    await createTransfer(
      trx,
      principal,
      {
        explant_id: into.id,
        ...counts,
        notes,
        ...(batchId === undefined ? {} : { media_batch_id: batchId }),
      },
      records,
      now,
    );
    await addExplantParents(trx, into, input.explant_ids, now);
  }
  const child = await getExplant(trx, workspaceId, childId);
  await insertEdges(
    trx,
    pooled.map((row) => ({
      workspace_id: workspaceId,
      parent_id: row.id,
      child_id: childId,
      kind: 'merge',
      transfer_id: transfers.get(row.id)!,
      occurred_at: occurredAt,
      recorded_by: principal.memberId,
      room_id: child.current_stage?.room_id ?? null,
      media_batch_id: batchId ?? null,
      created_at: now,
    })),
  );
  await recordChangeEvent(trx, {
    workspaceId,
    entityType: 'explant',
    entityId: childId,
    eventType: 'merged',
    eventTime: occurredAt,
    recordedBy: principal.memberId,
    payload: {
      parent_explant_ids: input.explant_ids,
      transfer_ids: pooled.map((row) => transfers.get(row.id)!),
      new_explant: into === null,
    },
  });
  const parents: ExplantRecord[] = [];
  for (const id of input.explant_ids) parents.push(await getExplant(trx, workspaceId, id));
  return { child, parents };
}
