import type { Trx } from '../../db/database.js';
import { newId } from '../../kernel/ids.js';
import {
  findLabelByBarcode,
  labels,
  listLabelContents,
  replaceLabelContents,
  type LabelContentRow,
} from './labels.repository.js';

export const LABEL_RECORD_TYPES = ['plant', 'explant', 'container'] as const;
export type LabelRecordType = (typeof LABEL_RECORD_TYPES)[number];
export const LABEL_CONTENT_TYPES = ['plant', 'explant'] as const;
export type LabelContentType = (typeof LABEL_CONTENT_TYPES)[number];

export interface LabelContentInput {
  record_type: LabelContentType;
  record_id: string;
}

export interface LabelInput {
  barcode: string;
  record_type: LabelRecordType;
  record_id: string;
  display_name: string;
  /** What a container holds; empty for plant and explant labels. */
  contents: LabelContentInput[];
}

/**
 * Inserts a label or updates the one with the same barcode; a container's
 * contents are replaced when they differ from the stored list.
 */
export async function saveLabel(
  trx: Trx,
  workspaceId: string,
  input: LabelInput,
  now: string,
): Promise<void> {
  const existing = await findLabelByBarcode(trx, workspaceId, input.barcode);
  const labelId = existing?.id ?? newId();
  const fields = {
    record_type: input.record_type,
    record_id: input.record_id,
    display_name: input.display_name,
  };
  await labels.save(trx, workspaceId, labelId, fields, {
    insert: () => ({
      id: labelId,
      workspace_id: workspaceId,
      barcode: input.barcode,
      ...fields,
      created_at: now,
    }),
  });

  const stored = existing === undefined ? [] : await listLabelContents(trx, workspaceId, labelId);
  const same =
    stored.length === input.contents.length &&
    stored.every(
      (row, i) =>
        row.record_type === input.contents[i]!.record_type &&
        row.record_id === input.contents[i]!.record_id,
    );
  if (same) return;
  const rows: LabelContentRow[] = input.contents.map((item, position) => ({
    id: newId(),
    workspace_id: workspaceId,
    label_id: labelId,
    record_type: item.record_type,
    record_id: item.record_id,
    position,
  }));
  await replaceLabelContents(trx, workspaceId, labelId, rows);
}
