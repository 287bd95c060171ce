import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import { AppError, errors } from '../../kernel/errors.js';
import { getExplant } from '../explants/index.js';
import { getPlant } from '../plants/index.js';
import { findLabelsOfRecords } from './labels.repository.js';
import type { LabelCode, LabelCodesQuery, LABEL_CODE_SOURCES } from './label-codes.schemas.js';
import { resolveLabel } from './labels.service.js';

export type LabelCodeRecord = Static<typeof LabelCode>;
type Source = (typeof LABEL_CODE_SOURCES)[number];
type Kind = 'plant' | 'explant';

interface Printed {
  readonly name: string;
  readonly stage: string | null;
  readonly date: string | null;
  /** The record's own codes, most readable first. */
  readonly identifiers: readonly string[];
}

async function printedOf(db: Db, workspaceId: string, kind: Kind, id: string): Promise<Printed> {
  try {
    const record =
      kind === 'plant'
        ? await getPlant(db, workspaceId, id)
        : await getExplant(db, workspaceId, id);
    const stage = record.current_stage;
    const own =
      kind === 'plant'
        ? [record.external_id]
        : // An explant's external_id falls back to its batch number, which the batch
          // shares: a label is the explant's own before that.
          [
            'label' in record && record.external_id !== record.batch_number
              ? record.external_id
              : null,
            'label' in record ? record.label : null,
          ];
    return {
      name: 'label' in record ? (record.label ?? record.id) : record.name,
      stage: stage === null ? null : (stage.name ?? stage.stage),
      date: (stage?.entered_on ?? record.created_at ?? '').slice(0, 10) || null,
      identifiers: own.filter((code): code is string => code !== null && code !== ''),
    };
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') {
      throw errors.notFound(kind === 'plant' ? 'Plant' : 'Explant');
    }
    throw error;
  }
}

/** Whether resolving `code` gives this record back (another record may hold the code first). */
async function resolvesTo(
  db: Db,
  workspaceId: string,
  code: string,
  kind: Kind,
  id: string,
  publicUrl: string,
): Promise<boolean> {
  try {
    const found = await resolveLabel(db, workspaceId, code, publicUrl);
    return found.record_type === kind && found.record_id === id;
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return false;
    throw error;
  }
}

/**
 * What to print on the labels of some plants or explants, in the order asked:
 * for each, the first code that resolves back to it — an imported label's
 * barcode, its own identifier, else its id — with its name, stage and date.
 * An id that names no record of the workspace is 404.
 */
export async function labelCodes(
  db: Db,
  workspaceId: string,
  query: Static<typeof LabelCodesQuery>,
  publicUrl: string,
): Promise<LabelCodeRecord[]> {
  if (query.plant_ids !== undefined && query.explant_ids !== undefined) {
    throw errors.validation('plant_ids or explant_ids: give one of them, not both');
  }
  // Naming no record asks for no label.
  if (query.plant_ids === undefined && query.explant_ids === undefined) return [];
  const kind: Kind = query.plant_ids === undefined ? 'explant' : 'plant';
  const ids = [...new Set((query.plant_ids ?? query.explant_ids ?? '').toLowerCase().split(','))];
  const imported = new Map<string, string[]>();
  for (const label of await findLabelsOfRecords(db, workspaceId, kind, ids)) {
    imported.set(label.record_id, [...(imported.get(label.record_id) ?? []), label.barcode]);
  }
  const codeOf = async (id: string): Promise<LabelCodeRecord> => {
    const printed = await printedOf(db, workspaceId, kind, id);
    const candidates = new Map<string, Source>();
    for (const code of imported.get(id) ?? []) candidates.set(code, 'label');
    for (const code of printed.identifiers)
      if (!candidates.has(code)) candidates.set(code, 'identifier');
    if (!candidates.has(id)) candidates.set(id, 'id');
    let chosen: [string, Source] | null = null;
    for (const candidate of candidates) {
      if (await resolvesTo(db, workspaceId, candidate[0], kind, id, publicUrl)) {
        chosen = candidate;
        break;
      }
    }
    return {
      record_type: kind,
      record_id: id,
      code: chosen?.[0] ?? null,
      source: chosen?.[1] ?? null,
      name: printed.name,
      stage: printed.stage,
      date: printed.date,
    };
  };
  // A few records at a time: PostgreSQL answers them on several pooled connections.
  const codes: LabelCodeRecord[] = [];
  for (let start = 0; start < ids.length; start += CONCURRENCY) {
    codes.push(...(await Promise.all(ids.slice(start, start + CONCURRENCY).map(codeOf))));
  }
  return codes;
}

const CONCURRENCY = 4;
