import type { Static } from 'typebox';
import type { Trx } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import type { Principal } from '../../kernel/principal.js';
import { recordChangeEvents, type NewChangeEvent } from '../events/index.js';
import {
  createExplant,
  presentExplant,
  type ExplantContext,
  type ExplantRecord,
} from '../explants/index.js';
import { stageOptions, type StageOption } from '../lab/index.js';
import { recordTransfer } from '../transfers/index.js';
import { namingPart, requireLiving, type LineageRecords } from './family.js';
import { insertEdges, lockSplitParent, splitCounts, type EdgeRow } from './lineage.repository.js';
import type { SplitBody } from './lineage.schemas.js';

type SplitInput = Static<typeof SplitBody>;

const sum = (values: readonly (number | undefined)[]) =>
  values.reduce<number>((total, value) => total + (value ?? 0), 0);

/** What leaves the parent, checked against what it has. */
function checkCounts(
  parent: { current_count: number | null; plantlet_count: number | null },
  daughters: SplitInput['daughters'],
): { vessels: number; plantlets: number | null } {
  if (parent.current_count === null) {
    throw errors.validation(
      'daughters: the explant has no vessel count (current_count); count it first',
    );
  }
  const vessels = sum(daughters.map((d) => d.vessel_count));
  if (vessels > parent.current_count) {
    throw errors.validation(
      `daughters: ${vessels} vessels would leave the explant, which has ${parent.current_count}`,
    );
  }
  const plantlets = sum(daughters.map((d) => d.plantlet_count));
  if (parent.plantlet_count !== null && plantlets > parent.plantlet_count) {
    throw errors.validation(
      `daughters: ${plantlets} plantlets would leave the explant, which has ${parent.plantlet_count}`,
    );
  }
  return {
    vessels: parent.current_count - vessels,
    plantlets: parent.plantlet_count === null ? null : parent.plantlet_count - plantlets,
  };
}

/**
 * A subculture that makes daughter explants of one parent (POST /explants/{id}/split),
 * in the caller's transaction: the parent is locked and checked (living, enough vessels
 * and plantlets), a transfer is recorded on it as POST /transfers records one (its
 * vessel and plantlet counts go down by what left, with its `transfer` and `updated`
 * events), each daughter is created as POST /explants creates one (a `created` event;
 * its first stage the parent's, in its room, unless the daughter names others), one
 * edge per daughter keeps the family, and a `split` event on the parent names them.
 * The parent is read once, locked, with the lab's interval (one statement; the row is
 * handed on), then its highest transfer cycle with its children count (one statement),
 * the lab's explant stages at most once, the parent's plant not again (the daughters
 * inherit it), and every event is recorded in order in one call at the end.
 */
export async function splitExplant(
  trx: Trx,
  principal: Principal,
  parentId: string,
  input: SplitInput,
  records: LineageRecords,
  now: string,
): Promise<{ parent: ExplantRecord; daughters: ExplantRecord[] }> {
  const workspaceId = principal.workspaceId;
  const locked = await lockSplitParent(trx, workspaceId, parentId);
  if (locked === undefined) throw errors.notFound('Explant');
  const { parent, intervalDays } = locked;
  requireLiving(parent, 'id');
  const left = checkCounts(parent, input.daughters);
  const { highestCycle, children: numbered } = await splitCounts(trx, workspaceId, parentId);
  const events: NewChangeEvent[] = [];
  const { transfer, explantUpdate } = await recordTransfer(
    trx,
    principal,
    {
      explant_id: parentId,
      vessel_count: left.vessels,
      ...(left.plantlets === null ? {} : { plantlet_count: left.plantlets }),
      notes: input.notes ?? `Split into ${input.daughters.length}`,
    },
    records,
    now,
    { explant: parent, events, highestCycle },
  );
  const context: ExplantContext = { intervalDays };
  // The lab's explant stages, read once (when a daughter starts in a stage) for all.
  let stages: Promise<readonly StageOption[]> | undefined;
  const stageList = () => (stages ??= stageOptions(trx, workspaceId, 'explant'));
  const occurredAt = transfer.transfer_date ?? now;
  const daughters: ExplantRecord[] = [];
  const edges: EdgeRow[] = [];
  for (const [i, daughter] of input.daughters.entries()) {
    const stage = daughter.initial_stage ?? parent.current_stage ?? undefined;
    const roomId =
      daughter.room_id ?? (stage === undefined ? undefined : (parent.current_room_id ?? undefined));
    const record = await namingPart(`daughters[${i}]`, () =>
      createExplant(
        trx,
        principal,
        {
          label: daughter.label ?? `${parent.label}.${numbered + i + 1}`,
          plant_id: parent.plant_id,
          initial_count: daughter.vessel_count,
          plantlet_count: daughter.plantlet_count ?? null,
          ...(daughter.notes === undefined ? {} : { notes: daughter.notes }),
          ...(stage === undefined ? {} : { initial_stage: stage }),
          ...(roomId === undefined ? {} : { room_id: roomId }),
          ...(daughter.media_batch_id === undefined
            ? {}
            : { media_batch_id: daughter.media_batch_id }),
        },
        now,
        records,
        { parentIds: [parentId], context, stageList, inheritedPlantId: parent.plant_id, events },
      ),
    );
    daughters.push(record);
    edges.push({
      workspace_id: workspaceId,
      parent_id: parentId,
      child_id: record.id,
      kind: 'split',
      transfer_id: transfer.id,
      occurred_at: occurredAt,
      recorded_by: principal.memberId,
      room_id: record.current_stage?.room_id ?? null,
      media_batch_id: record.media_batch_id ?? null,
      created_at: now,
    });
  }
  await insertEdges(trx, edges);
  events.push({
    workspaceId,
    entityType: 'explant',
    entityId: parentId,
    eventType: 'split',
    eventTime: occurredAt,
    recordedBy: principal.memberId,
    payload: {
      transfer_id: transfer.id,
      daughters: daughters.map((d) => ({
        id: d.id,
        label: d.label,
        vessel_count: d.current_count,
        plantlet_count: d.plantlet_count,
      })),
    },
  });
  await recordChangeEvents(trx, events);
  return { parent: presentExplant({ ...parent, ...explantUpdate }, context), daughters };
}
