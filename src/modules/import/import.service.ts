import type { Trx } from '../../db/database.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { diffFields } from '../../lib/changes.js';
import { nowIso } from '../../kernel/time.js';
import {
  getWorkspace,
  setWorkspaceFeatures,
  updateWorkspaceSettings,
  type WorkspaceRow,
} from '../identity/index.js';
import { saveRoom, setCustomFieldDefinitions } from '../lab/index.js';
import { replaceStageList } from '../records/index.js';
import { checkImportAgainstDatabase } from './import.checks.js';
import { storedIds } from './import.match.js';
import { planImport, type ImportPlan, type WorkspaceSettings } from './import.plan.js';
import type { ImportFile } from './import.schema.js';
import { validateImportFile } from './import.validate.js';
import {
  saveCultureLinePrice,
  saveEquipment,
  saveLabel,
  saveOrderLine,
  savePriceEvent,
  saveSop,
} from './import.write.js';

/** How many records of each section the file held (all were written or already equal). */
export interface ImportCounts {
  workspace: number;
  stages: number;
  custom_fields: number;
  rooms: number;
  sops: number;
  sop_versions: number;
  equipment: number;
  labels: number;
  culture_line_prices: number;
  price_events: number;
  order_lines: number;
}

const WORKSPACE_FIELDS = ['name', 'type', 'device_allowance', 'subculture_interval_days'] as const;

/** Validates a parsed import file (schema and in-file rules); writes nothing. */
export function parseImportFile(data: unknown): ImportFile {
  return validateImportFile(data);
}

/** Writes the settings that differ from the stored workspace; equal ones leave it untouched. */
async function applyWorkspaceSettings(
  trx: Trx,
  workspace: WorkspaceRow,
  settings: WorkspaceSettings,
  now: string,
): Promise<void> {
  const { features, ...columns } = settings;
  if (Object.keys(diffFields(workspace, columns, WORKSPACE_FIELDS)).length > 0) {
    await updateWorkspaceSettings(trx, workspace.id, columns, now);
  }
  if (features !== undefined && JSON.stringify(features) !== workspace.features) {
    await setWorkspaceFeatures(trx, workspace.id, features);
  }
}

async function applyLabSetup(
  trx: Trx,
  workspaceId: string,
  plan: ImportPlan,
  now: string,
): Promise<void> {
  for (const entity of ['plant', 'explant'] as const) {
    const list = plan.stages[entity];
    if (list !== undefined) await replaceStageList(trx, workspaceId, entity, list);
  }
  if (plan.customFields !== null) {
    await setCustomFieldDefinitions(trx, workspaceId, plan.customFields);
  }
  for (const room of plan.rooms) {
    await saveRoom(trx, { id: room.id, workspaceId, name: room.name, createdAt: now });
  }
}

/**
 * Plans a validated file against the database (records without an id match
 * stored ones on a natural key, see import.match.ts), checks it, then writes it,
 * inside the caller's transaction: upserts by id, replaces the stage lists and
 * custom field definitions given. Throws before writing anything when a check fails.
 */
export async function applyImport(
  trx: Trx,
  workspaceId: string,
  file: ImportFile,
  records: RecordLookup,
  now: string,
): Promise<ImportCounts> {
  const workspace = await getWorkspace(trx, workspaceId);
  const plan: ImportPlan = planImport(file, await storedIds(trx, workspaceId, file));
  await checkImportAgainstDatabase(trx, workspaceId, plan, records);

  if (plan.workspace !== null) await applyWorkspaceSettings(trx, workspace, plan.workspace, now);
  await applyLabSetup(trx, workspaceId, plan, now);
  for (const sop of plan.sops) await saveSop(trx, workspaceId, sop, now);
  for (const item of plan.equipment) await saveEquipment(trx, workspaceId, item, now);
  for (const label of plan.labels) await saveLabel(trx, workspaceId, label, now);
  for (const price of plan.cultureLinePrices) {
    await saveCultureLinePrice(trx, workspaceId, price, now);
  }
  for (const event of plan.priceEvents) await savePriceEvent(trx, workspaceId, event);
  for (const line of plan.orderLines) await saveOrderLine(trx, workspaceId, line, now);

  return {
    workspace: plan.workspace === null ? 0 : 1,
    stages: (plan.stages.plant?.length ?? 0) + (plan.stages.explant?.length ?? 0),
    custom_fields: plan.customFields?.length ?? 0,
    rooms: plan.rooms.length,
    sops: plan.sops.length,
    sop_versions: plan.sops.reduce((sum, sop) => sum + sop.versions.length, 0),
    equipment: plan.equipment.length,
    labels: plan.labels.length,
    culture_line_prices: plan.cultureLinePrices.length,
    price_events: plan.priceEvents.length,
    order_lines: plan.orderLines.length,
  };
}

/**
 * Loads lab data the API has no write endpoint for (`vitro import`): validates the
 * whole file first, then applies it in the caller's one transaction, so an
 * invalid file changes nothing.
 */
export async function importLabData(
  trx: Trx,
  workspaceId: string,
  data: unknown,
  records: RecordLookup,
  now: string = nowIso(),
): Promise<ImportCounts> {
  return applyImport(trx, workspaceId, parseImportFile(data), records, now);
}
