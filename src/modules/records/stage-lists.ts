import type { Db, Trx } from '../../db/database.js';
import { setStageList, stageList, type StageEntity, type StageOption } from '../lab/index.js';
import { renameCurrentStages } from './current-stage.js';

/** `Root Induction` -> `root_induction`. */
export function stageKeyOf(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

const PLANT_STAGES = [
  'Mother Block',
  'Acclimation',
  'Production',
  'Cold Storage',
  'Quarantine',
  'Propagation',
  'Hardening Off',
  'Greenhouse',
  'Field',
  'Discarded',
];
const EXPLANT_STAGES = [
  'Initiation',
  'Establishment',
  'Multiplication',
  'Elongation',
  'Root Induction',
  'Acclimatization',
];

export const DEFAULT_STAGE_LISTS: Readonly<Record<StageEntity, readonly StageOption[]>> = {
  plant: PLANT_STAGES.map((name) => ({ key: stageKeyOf(name), name })),
  explant: EXPLANT_STAGES.map((name) => ({ key: stageKeyOf(name), name })),
};

export const DEFAULT_PLANT_STAGE_NAMES = PLANT_STAGES;

/**
 * The key a caller meant: an exact key, else a display name (any case), else a
 * key in another case or written as a name. Null when the lab does not use it.
 */
export function resolveStageKey(options: readonly StageOption[], input: string): string | null {
  const exact = options.find((o) => o.key === input);
  if (exact) return exact.key;
  const folded = input.trim().toLowerCase();
  const byName = options.find((o) => o.name.toLowerCase() === folded);
  if (byName) return byName.key;
  const asKey = stageKeyOf(input);
  return options.find((o) => o.key === asKey)?.key ?? null;
}

/** A new workspace's stage lists: the defaults of each kind. */
export async function installDefaultStageLists(trx: Trx, workspaceId: string): Promise<void> {
  for (const entity of ['plant', 'explant'] as const) {
    await setStageList(trx, workspaceId, entity, DEFAULT_STAGE_LISTS[entity]);
  }
}

/** The keys among `keys` that a stage of the workspace's records of this kind was ever in. */
async function stageKeysInUse(
  db: Db,
  workspaceId: string,
  entity: StageEntity,
  keys: readonly string[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('stages')
    .select('stage')
    .distinct()
    .where('workspace_id', '=', workspaceId)
    .where('entity_type', '=', entity)
    .where('stage', 'in', [...keys])
    .execute();
  return new Set(rows.map((row) => row.stage));
}

/**
 * Replaces a kind's stage list, as an import or `PATCH /stage-lists` writes it:
 * `list` is what records may enter, in order. A stored stage it leaves out that
 * records were ever in is kept as retired (its name stays for their history;
 * records in it stay there; nothing new enters it); one never used is removed.
 * Records now in a renamed stage show its new name.
 */
export async function replaceStageList(
  trx: Trx,
  workspaceId: string,
  entity: StageEntity,
  list: readonly StageOption[],
): Promise<void> {
  const stored = await stageList(trx, workspaceId, entity);
  const kept = new Set(list.map((option) => option.key));
  const dropped = [...stored.active, ...stored.retired].filter((option) => !kept.has(option.key));
  const inUse = await stageKeysInUse(
    trx,
    workspaceId,
    entity,
    dropped.map((option) => option.key),
  );
  const retired = dropped.filter((option) => inUse.has(option.key));
  await setStageList(trx, workspaceId, entity, list, retired);
  await renameCurrentStages(trx, entity, workspaceId, list);
}
