import type { Trx } from '../../db/database.js';
import { setStageList, type StageEntity, type StageOption } from '../lab/index.js';

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
