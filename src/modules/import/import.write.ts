import type { Trx } from '../../db/database.js';
import type { LabelContentTable, SopTable } from '../../db/schema.js';
import { newId } from '../../kernel/ids.js';
import { diffFields } from '../../lib/changes.js';
import { orderLines } from '../commerce/index.js';
import {
  equipment,
  newEquipmentRow,
  type EQUIPMENT_CATEGORIES,
  type EQUIPMENT_STATUSES,
  type EquipmentLibraryFields,
} from '../equipment/index.js';
import {
  findLabelByBarcode,
  labels,
  listLabelContents,
  replaceLabelContents,
  type LabelContentType,
  type LabelRecordType,
} from '../labels/index.js';
import { cultureLinePrices, priceEvents, type Money, type PriceSource } from '../pricing/index.js';
import {
  indexSop,
  SOP_FIELDS,
  sops,
  sopVersions,
  supersedeEffectiveVersions,
  type SopLifecycleStatus,
  type SopStep,
} from '../sops/index.js';
import { upsert } from './upsert.js';

/*
 * How an import writes each kind of record it loads, through the owning module's
 * table gateway: the records below are written by imports only (the API reads
 * them), so the rules of writing them live with the import.
 */

export interface SopVersionInput {
  id: string;
  version: number;
  lifecycle_status: SopLifecycleStatus;
  effective_at: string | null;
  approved_at: string | null;
  title: string | null;
  description: string | null;
  steps: SopStep[];
}

export interface SopInput {
  id: string;
  title: string;
  description: string | null;
  category: string | null;
  status: string | null;
  level: string | null;
  tags: string[];
  equipment: string[];
  estimated_time_minutes: number | null;
  duration_hours: number | null;
  versions: SopVersionInput[];
}

/**
 * Inserts or updates an SOP and the versions given (stored versions not given are
 * kept). A version given as effective becomes the one in force: any other stored
 * effective version of the SOP is superseded. Unchanged rows are left untouched.
 */
export async function saveSop(
  trx: Trx,
  workspaceId: string,
  sop: SopInput,
  now: string,
): Promise<void> {
  const fields: Pick<SopTable, (typeof SOP_FIELDS)[number]> = {
    title: sop.title,
    description: sop.description,
    category: sop.category,
    status: sop.status,
    level: sop.level,
    tags: JSON.stringify(sop.tags),
    equipment: JSON.stringify(sop.equipment),
    estimated_time_minutes: sop.estimated_time_minutes,
    duration_hours: sop.duration_hours,
  };
  const existing = await sops.find(trx, workspaceId, sop.id);
  if (existing === undefined) {
    await sops.insert(trx, {
      id: sop.id,
      workspace_id: workspaceId,
      ...fields,
      created_at: now,
      updated_at: now,
    });
  }
  let changed =
    existing !== undefined && Object.keys(diffFields(existing, fields, SOP_FIELDS)).length > 0;
  for (const version of sop.versions) {
    if ((await saveVersion(trx, workspaceId, sop.id, version, now)) !== 'unchanged') {
      changed = true;
    }
  }
  const effective = sop.versions.find((v) => v.lifecycle_status === 'effective');
  if (
    effective !== undefined &&
    (await supersedeEffectiveVersions(trx, workspaceId, sop.id, effective.id)) > 0
  ) {
    changed = true;
  }
  if (existing !== undefined && changed) {
    await sops.update(trx, workspaceId, sop.id, { ...fields, updated_at: now });
  }
  const saved = await sops.find(trx, workspaceId, sop.id);
  if (saved !== undefined) await indexSop(trx, saved);
}

function saveVersion(
  trx: Trx,
  workspaceId: string,
  sopId: string,
  version: SopVersionInput,
  now: string,
) {
  const fields = {
    version: version.version,
    lifecycle_status: version.lifecycle_status,
    effective_at: version.effective_at,
    approved_at: version.approved_at,
    title: version.title,
    description: version.description,
    steps: JSON.stringify(version.steps),
  };
  return upsert(sopVersions, trx, workspaceId, version.id, fields, {
    insert: () => ({
      id: version.id,
      workspace_id: workspaceId,
      sop_id: sopId,
      ...fields,
      created_at: now,
    }),
  });
}

/** The library fields of a piece of equipment; calibration and maintenance dates come from its events. */
export type EquipmentInput = EquipmentLibraryFields & {
  id: string;
  category: (typeof EQUIPMENT_CATEGORIES)[number];
  status: (typeof EQUIPMENT_STATUSES)[number];
};

/** Inserts the equipment or updates its library fields; an unchanged row is left untouched. */
export async function saveEquipment(
  trx: Trx,
  workspaceId: string,
  input: EquipmentInput,
  now: string,
): Promise<void> {
  const { id, ...fields } = input;
  await upsert(equipment, trx, workspaceId, id, fields, {
    insert: () => newEquipmentRow(workspaceId, id, fields, now),
    onChange: () => ({ updated_at: now }),
  });
}

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
  await upsert(labels, trx, workspaceId, labelId, fields, {
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
  const rows: LabelContentTable[] = input.contents.map((item, position) => ({
    id: newId(),
    workspace_id: workspaceId,
    label_id: labelId,
    record_type: item.record_type,
    record_id: item.record_id,
    position,
  }));
  await replaceLabelContents(trx, workspaceId, labelId, rows);
}

export interface CultureLinePriceInput {
  id: string;
  plant_id: string;
  list_price: Money;
  wholesale_price: Money | null;
  pricing_tier: string | null;
  /** An exact decimal string, like the amounts. */
  tier_score: string | null;
  price_source: PriceSource;
  notes: string | null;
}

export interface PriceEventInput {
  id: string;
  plant_id: string;
  list_price: Money;
  previous_list_price: Money | null;
  price_source: PriceSource;
  changed_at: string;
}

/**
 * Inserts or updates a culture line price. When the list price changes, the old
 * one becomes `previous_list_price`; when the source changes, `price_source_at`
 * is now. An unchanged row is left untouched.
 */
export async function saveCultureLinePrice(
  trx: Trx,
  workspaceId: string,
  input: CultureLinePriceInput,
  now: string,
): Promise<void> {
  const fields = {
    plant_id: input.plant_id,
    list_amount: input.list_price.amount,
    list_currency: input.list_price.currency,
    wholesale_amount: input.wholesale_price?.amount ?? null,
    wholesale_currency: input.wholesale_price?.currency ?? null,
    pricing_tier: input.pricing_tier,
    tier_score: input.tier_score,
    price_source: input.price_source,
    notes: input.notes,
  };
  await upsert(cultureLinePrices, trx, workspaceId, input.id, fields, {
    insert: () => ({
      id: input.id,
      workspace_id: workspaceId,
      ...fields,
      previous_amount: null,
      previous_currency: null,
      price_source_at: now,
      created_at: now,
      updated_at: now,
    }),
    onChange: (existing, changes) => ({
      ...('list_amount' in changes || 'list_currency' in changes
        ? { previous_amount: existing.list_amount, previous_currency: existing.list_currency }
        : {}),
      ...('price_source' in changes ? { price_source_at: now } : {}),
      updated_at: now,
    }),
  });
}

/** Inserts or updates a recorded price change; an unchanged row is left untouched. */
export async function savePriceEvent(
  trx: Trx,
  workspaceId: string,
  input: PriceEventInput,
): Promise<void> {
  const fields = {
    plant_id: input.plant_id,
    list_amount: input.list_price.amount,
    list_currency: input.list_price.currency,
    previous_amount: input.previous_list_price?.amount ?? null,
    previous_currency: input.previous_list_price?.currency ?? null,
    price_source: input.price_source,
    changed_at: input.changed_at,
  };
  await upsert(priceEvents, trx, workspaceId, input.id, fields, {
    insert: () => ({ id: input.id, workspace_id: workspaceId, ...fields, changed_by: null }),
  });
}

/** A store order line: what sold, how many, at what unit price; no buyer data. */
export interface OrderLineInput {
  id: string;
  plant_id: string | null;
  product_link_id: string | null;
  store_product_id: string | null;
  store_variant_id: string | null;
  quantity: number;
  unit_price: Money | null;
  occurred_at: string | null;
}

/** Inserts or updates an order line; an unchanged row is left untouched. */
export async function saveOrderLine(
  trx: Trx,
  workspaceId: string,
  input: OrderLineInput,
  now: string,
): Promise<void> {
  const fields = {
    plant_id: input.plant_id,
    product_link_id: input.product_link_id,
    store_product_id: input.store_product_id,
    store_variant_id: input.store_variant_id,
    quantity: input.quantity,
    unit_amount: input.unit_price?.amount ?? null,
    unit_currency: input.unit_price?.currency ?? null,
    occurred_at: input.occurred_at,
    occurred_key: input.occurred_at ?? '',
  };
  await upsert(orderLines, trx, workspaceId, input.id, fields, {
    insert: () => ({ id: input.id, workspace_id: workspaceId, ...fields, created_at: now }),
  });
}
