import type { Db } from '../../db/database.js';
import type { WorkspaceTable, WorkspaceTableName } from '../../db/tables.js';
import { errors } from '../../kernel/errors.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { orderLines } from '../commerce/index.js';
import { equipment } from '../equipment/index.js';
import { rooms } from '../lab/index.js';
import { cultureLinePrices, priceEvents } from '../pricing/index.js';
import { findSopVersionConflict, sops } from '../sops/index.js';
import type { ImportPlan } from './import.plan.js';
import { idsHeldElsewhere } from './upsert.js';

/** Keeps `IN (…)` lists well below the bound-parameter limits of both engines. */
const CHUNK = 500;

async function refuseForeignIds<T extends WorkspaceTableName>(
  db: Db,
  workspaceId: string,
  section: string,
  records: readonly { id: string }[],
  table: WorkspaceTable<T>,
): Promise<void> {
  const ids = records.map((r) => r.id);
  const foreign = new Set<string>();
  for (let start = 0; start < ids.length; start += CHUNK) {
    for (const id of await idsHeldElsewhere(
      table,
      db,
      workspaceId,
      ids.slice(start, start + CHUNK),
    )) {
      foreign.add(id);
    }
  }
  const index = records.findIndex((r) => foreign.has(r.id));
  if (index >= 0) {
    throw errors.validation(`${section}[${index}].id: already used by another workspace`);
  }
}

/** Answers whether a plant or explant exists in the workspace, reading each id once. */
function recordChecker(db: Db, workspaceId: string, records: RecordLookup) {
  const known = new Map<string, boolean>();
  return async (type: 'plant' | 'explant', id: string, path: string): Promise<void> => {
    const cacheKey = `${type}:${id}`;
    let exists = known.get(cacheKey);
    if (exists === undefined) {
      exists = (await records.find(db, type, workspaceId, id)) !== undefined;
      known.set(cacheKey, exists);
    }
    if (!exists) throw errors.validation(`${path}: no ${type} with this id in the workspace`);
  };
}

async function checkReferences(
  db: Db,
  workspaceId: string,
  plan: ImportPlan,
  records: RecordLookup,
): Promise<void> {
  const requireRecord = recordChecker(db, workspaceId, records);
  for (const [i, label] of plan.labels.entries()) {
    if (label.record_type !== 'container') {
      await requireRecord(label.record_type, label.record_id, `labels[${i}].record_id`);
    }
    for (const [j, item] of label.contents.entries()) {
      await requireRecord(
        item.record_type,
        item.record_id,
        `labels[${i}].contents[${j}].record_id`,
      );
    }
  }
  for (const [i, price] of plan.cultureLinePrices.entries()) {
    await requireRecord('plant', price.plant_id, `culture_line_prices[${i}].plant_id`);
  }
  for (const [i, event] of plan.priceEvents.entries()) {
    await requireRecord('plant', event.plant_id, `price_events[${i}].plant_id`);
  }
  for (const [i, line] of plan.orderLines.entries()) {
    if (line.plant_id !== null) {
      await requireRecord('plant', line.plant_id, `order_lines[${i}].plant_id`);
    }
  }
}

/**
 * The checks that need the database, run before anything is written: no id may
 * belong to another workspace (it is refused, never taken over), SOP versions
 * must fit the stored ones, and named plants and explants must exist here.
 */
export async function checkImportAgainstDatabase(
  db: Db,
  workspaceId: string,
  plan: ImportPlan,
  records: RecordLookup,
): Promise<void> {
  await refuseForeignIds(db, workspaceId, 'rooms', plan.rooms, rooms);
  await refuseForeignIds(db, workspaceId, 'sops', plan.sops, sops);
  for (const [i, sop] of plan.sops.entries()) {
    const conflict = await findSopVersionConflict(db, workspaceId, sop);
    if (conflict !== null) {
      throw errors.validation(
        `sops[${i}].versions[${conflict.versionIndex}].${conflict.field}: ${conflict.problem}`,
      );
    }
  }
  await refuseForeignIds(db, workspaceId, 'equipment', plan.equipment, equipment);
  await refuseForeignIds(
    db,
    workspaceId,
    'culture_line_prices',
    plan.cultureLinePrices,
    cultureLinePrices,
  );
  await refuseForeignIds(db, workspaceId, 'price_events', plan.priceEvents, priceEvents);
  await refuseForeignIds(db, workspaceId, 'order_lines', plan.orderLines, orderLines);
  await checkReferences(db, workspaceId, plan, records);
}
