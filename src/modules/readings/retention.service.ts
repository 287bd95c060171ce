import type { Db, Trx } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import { getWorkspace } from '../identity/index.js';
import { MAX_RETENTION_DAYS } from '../../config.js';
import { findRawSince, findRetentionDays, saveRetentionDays } from './retention.repository.js';

/**
 * Readings retention: after how many days a workspace's raw readings are removed
 * (their rollups, and so their summaries, stay). A workspace's own setting, else
 * READINGS_RETENTION_DAYS, else for ever.
 *
 * Readings go by whole calendar months (UTC): a month's raw readings are removed
 * once the whole month is older than the retention, so a lab keeps at least the
 * days it asked for and at most a month more. On PostgreSQL that is dropping the
 * month's partition (no row-by-row delete, its space back at once), on SQLite the
 * same readings deleted in short batches.
 */

/** `days`, `off` (keep for ever) or `default` (follow READINGS_RETENTION_DAYS). */
export type RetentionSetting = number | 'off' | 'default';

/** Stored: null = the default, 0 = for ever, else days. */
const storedOf = (setting: RetentionSetting): number | null =>
  setting === 'default' ? null : setting === 'off' ? 0 : setting;

const settingOf = (stored: number | null): RetentionSetting =>
  stored === null ? 'default' : stored === 0 ? 'off' : stored;

/** The days raw readings are kept, or null for ever. */
export function effectiveRetentionDays(
  own: number | null,
  defaultDays: number | null,
): number | null {
  if (own === null) return defaultDays;
  return own === 0 ? null : own;
}

/**
 * Where raw readings end after a retention of `days` at `now`: the first instant of
 * the month holding `now − days` (UTC). Readings before it are removed.
 */
export function retentionCut(now: Date, days: number): string {
  const edge = new Date(now.getTime() - days * 86_400_000);
  return new Date(Date.UTC(edge.getUTCFullYear(), edge.getUTCMonth(), 1)).toISOString();
}

/** Parses the CLI's `--days`: a number of days, `off` or `default`. */
export function parseRetentionSetting(text: string): RetentionSetting {
  if (text === 'off' || text === 'default') return text;
  const days = Number(text);
  if (!/^\d+$/.test(text) || days < 1 || days > MAX_RETENTION_DAYS) {
    throw errors.validation(
      `--days: must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}, off or default, got "${text}"`,
    );
  }
  return days;
}

export interface RetentionState {
  workspace_id: string;
  /** The workspace's own setting. */
  setting: RetentionSetting;
  /** Days raw readings are kept now (the setting or the default); null = for ever. */
  days: number | null;
  /** Raw readings before this time were removed; null = none were. */
  raw_since: string | null;
}

/** Sets a workspace's readings retention (`vitro workspace set-readings-retention`). */
export async function setReadingsRetention(
  trx: Trx,
  workspaceId: string,
  setting: RetentionSetting,
  defaultDays: number | null,
  now: string,
): Promise<RetentionState> {
  await getWorkspace(trx, workspaceId);
  await saveRetentionDays(trx, workspaceId, storedOf(setting), now);
  return readingsRetentionOf(trx, workspaceId, defaultDays);
}

export async function readingsRetentionOf(
  db: Db,
  workspaceId: string,
  defaultDays: number | null,
): Promise<RetentionState> {
  const own = await findRetentionDays(db, workspaceId);
  return {
    workspace_id: workspaceId,
    setting: settingOf(own),
    days: effectiveRetentionDays(own, defaultDays),
    raw_since: await findRawSince(db, workspaceId),
  };
}

/** Where a workspace's raw readings start (retention removed those before); null = all kept. */
export function rawReadingsSince(db: Db, workspaceId: string): Promise<string | null> {
  return findRawSince(db, workspaceId);
}
