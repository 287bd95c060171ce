import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { getWorkspace, updateWorkspaceSettings, type WorkspaceRow } from './identity.service.js';
import type { LabSettings, UpdateLabSettingsBody } from './workspaces.schemas.js';

export type LabSettingsRecord = Static<typeof LabSettings>;

const presentSettings = (row: WorkspaceRow): LabSettingsRecord => ({
  subculture_interval_days: row.subculture_interval_days,
  sop_runs_require_all_steps: row.sop_runs_require_all_steps === 1,
  time_zone: row.time_zone,
});

/** GET /lab-settings: the calling key's lab's settings. */
export async function getLabSettings(db: Db, workspaceId: string): Promise<LabSettingsRecord> {
  return presentSettings(await getWorkspace(db, workspaceId));
}

/** PATCH /lab-settings: the sent settings change, the others stay. */
export async function updateLabSettings(
  trx: Trx,
  workspaceId: string,
  input: Static<typeof UpdateLabSettingsBody>,
  now: string,
): Promise<LabSettingsRecord> {
  await updateWorkspaceSettings(trx, workspaceId, input, now);
  return getLabSettings(trx, workspaceId);
}
