import type { Trx } from '../../db/database.js';
import { AppError, errors } from '../../kernel/errors.js';
import type { RecordLookup, RecordRefs } from '../../kernel/record-lookup.js';
import {
  ENDED_EXPLANT_STATUSES,
  type ExplantFamilyRow,
  type ExplantRow,
} from '../explants/index.js';

/**
 * The record lookup as a split or merge uses it: an explant comes as its whole row (a
 * split answers its parent from the row it locked).
 */
export type LineageRecords = RecordLookup<RecordRefs & { readonly explant: ExplantRow }>;

/**
 * Runs `work`; a 422 it throws names the part of the body it was about
 * (`daughters[1].room_id: …`), since the checks it calls name only the field.
 */
export async function namingPart<T>(part: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && error.code === 'VALIDATION_ERROR' && error.status === 422) {
      throw errors.validation(`${part}.${error.message}`);
    }
    throw error;
  }
}

/** A culture that can give vessels away: not archived, not ended. */
export function requireLiving(explant: ExplantFamilyRow, field: string): void {
  if (explant.archived_at !== null) {
    throw errors.validation(`${field}: the explant is archived`);
  }
  if ((ENDED_EXPLANT_STATUSES as readonly string[]).includes(explant.status)) {
    throw errors.validation(`${field}: the explant has ended (status ${explant.status})`);
  }
}

/** Locks explants in id order (concurrent merges of overlapping sets never deadlock). */
export async function lockExplants(
  trx: Trx,
  records: LineageRecords,
  workspaceId: string,
  ids: readonly string[],
  field: string,
): Promise<Map<string, ExplantFamilyRow>> {
  const locked = new Map<string, ExplantFamilyRow>();
  for (const id of [...ids].sort()) {
    const row = await records.lock(trx, 'explant', workspaceId, id);
    if (row === undefined) {
      throw errors.validation(
        `${field}[${ids.indexOf(id)}]: no explant with this id in the workspace`,
      );
    }
    locked.set(id, row);
  }
  return locked;
}
