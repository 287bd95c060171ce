import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import { getExplants, type ExplantRecord } from '../explants/index.js';
import { getPlants, type PlantRecord } from '../plants/index.js';
import { findLabelsOfRecords } from './labels.repository.js';
import type { LabelCode, LabelCodesQuery, LABEL_CODE_SOURCES } from './label-codes.schemas.js';
import { resolveLabelTargets, targetRecord } from './labels.service.js';

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

function printedOf(record: PlantRecord | ExplantRecord): Printed {
  const stage = record.current_stage;
  const own =
    'label' in record
      ? // An explant's external_id falls back to its batch number, which the batch
        // shares: a label is the explant's own before that.
        [record.external_id !== record.batch_number ? record.external_id : null, record.label]
      : [record.external_id];
  return {
    name: 'label' in record ? (record.label ?? record.id) : record.name,
    stage: stage === null ? null : (stage.name ?? stage.stage),
    date: (stage?.entered_on ?? record.created_at ?? '').slice(0, 10) || null,
    identifiers: own.filter((code): code is string => code !== null && code !== ''),
  };
}

/**
 * What to print on the labels of some plants or explants, in the order asked:
 * for each, the first code that resolves back to it — an imported label's
 * barcode, its own identifier, else its id — with its name, stage and date.
 * An id that names no record of the workspace is 404. A few queries for the
 * whole sheet: the records, their imported labels, then every candidate code
 * resolved at once.
 */
export async function labelCodes(
  db: Db,
  workspaceId: string,
  query: Static<typeof LabelCodesQuery>,
): Promise<LabelCodeRecord[]> {
  if (query.plant_ids !== undefined && query.explant_ids !== undefined) {
    throw errors.validation('plant_ids or explant_ids: give one of them, not both');
  }
  // Naming no record asks for no label.
  if (query.plant_ids === undefined && query.explant_ids === undefined) return [];
  const kind: Kind = query.plant_ids === undefined ? 'explant' : 'plant';
  const ids = [...new Set((query.plant_ids ?? query.explant_ids ?? '').toLowerCase().split(','))];
  const records: Map<string, PlantRecord | ExplantRecord> =
    kind === 'plant'
      ? await getPlants(db, workspaceId, ids)
      : await getExplants(db, workspaceId, ids);
  if (ids.some((id) => !records.has(id))) {
    throw errors.notFound(kind === 'plant' ? 'Plant' : 'Explant');
  }
  const imported = new Map<string, string[]>();
  for (const label of await findLabelsOfRecords(db, workspaceId, kind, ids)) {
    imported.set(label.record_id, [...(imported.get(label.record_id) ?? []), label.barcode]);
  }
  const sheet = ids.map((id) => {
    const printed = printedOf(records.get(id)!);
    const candidates = new Map<string, Source>();
    for (const code of imported.get(id) ?? []) candidates.set(code, 'label');
    for (const code of printed.identifiers)
      if (!candidates.has(code)) candidates.set(code, 'identifier');
    if (!candidates.has(id)) candidates.set(id, 'id');
    return { id, printed, candidates };
  });
  const targets = await resolveLabelTargets(
    db,
    workspaceId,
    sheet.flatMap(({ candidates }) => [...candidates.keys()]),
  );
  return sheet.map(({ id, printed, candidates }) => {
    // The first candidate that a scanner's resolve would answer with this record.
    const chosen = [...candidates].find(([code]) => {
      const target = targets.get(code);
      if (target === undefined) return false;
      const record = targetRecord(target);
      return record.type === kind && record.id === id;
    });
    return {
      record_type: kind,
      record_id: id,
      code: chosen?.[0] ?? null,
      source: chosen?.[1] ?? null,
      name: printed.name,
      stage: printed.stage,
      date: printed.date,
    };
  });
}
