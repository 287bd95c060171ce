import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { AppError, errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import type { Page, PageRequest } from '../../db/pages.js';
import { requireDevice } from '../devices/index.js';
import { requireRoom } from '../lab/index.js';
import {
  alertRules,
  countRules,
  deleteRuleRow,
  ruleWorkspace,
  type AlertRuleRow,
} from './alerts.repository.js';
import type {
  AlertRuleRecord,
  CreateAlertRuleBody,
  UpdateAlertRuleBody,
} from './alerts.schemas.js';
import { resolveAlert } from './episodes.js';
import { forgetRules } from './rule-cache.js';

/** How many rules one workspace may have. */
export const RULES_PER_WORKSPACE = 100;

export function presentRule(row: AlertRuleRow): AlertRuleRecord {
  return {
    id: row.id,
    name: row.name,
    sensor_type: row.sensor_type,
    room_id: row.room_id,
    device_id: row.device_id,
    condition: row.condition as AlertRuleRecord['condition'],
    threshold: row.threshold,
    duration_minutes: row.duration_minutes,
    hysteresis: row.hysteresis,
    enabled: row.enabled === 1,
    state:
      row.open_alert_id !== null ? 'alerting' : row.breach_started_at !== null ? 'breaching' : 'ok',
    breach_started_at: row.breach_started_at,
    open_alert_id: row.open_alert_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function requireRule(db: Db, workspaceId: string, id: string): Promise<AlertRuleRow> {
  const row = await alertRules.find(db, workspaceId, id);
  if (row === undefined) throw errors.notFound('Alert rule');
  return row;
}

function checkShape(rule: {
  condition: string;
  threshold: number | null;
  duration_minutes: number;
}): void {
  if (rule.condition === 'no_readings') {
    if (rule.threshold !== null) throw errors.validation('threshold: is not used by no_readings');
    if (rule.duration_minutes < 1) {
      throw errors.validation('duration_minutes: must be at least 1 for no_readings');
    }
  } else if (rule.threshold === null) {
    throw errors.validation(`threshold: is required for ${rule.condition}`);
  }
}

/** A rule on a room's or a device's readings of one type. */
export async function createRule(
  trx: Trx,
  actor: { workspaceId: string; memberId: string | null },
  body: Static<typeof CreateAlertRuleBody>,
  now: string,
): Promise<AlertRuleRecord> {
  const { workspaceId } = actor;
  if ((body.room_id === undefined) === (body.device_id === undefined)) {
    throw errors.validation('room_id: send exactly one of room_id and device_id');
  }
  const row: AlertRuleRow = {
    id: newId(),
    workspace_id: workspaceId,
    name: body.name,
    sensor_type: body.sensor_type,
    room_id: body.room_id ?? null,
    device_id: body.device_id ?? null,
    condition: body.condition,
    threshold: body.threshold ?? null,
    duration_minutes: body.duration_minutes ?? 0,
    hysteresis: body.hysteresis ?? 0,
    enabled: body.enabled === false ? 0 : 1,
    breach_started_at: null,
    open_alert_id: null,
    created_by: actor.memberId,
    created_at: now,
    updated_at: now,
  };
  checkShape(row);
  if (row.room_id !== null) await requireRoom(trx, workspaceId, row.room_id);
  if (row.device_id !== null) await requireDevice(trx, workspaceId, row.device_id);
  if ((await countRules(trx, workspaceId)) >= RULES_PER_WORKSPACE) {
    throw new AppError(
      'CONFLICT',
      `A workspace has at most ${RULES_PER_WORKSPACE} alert rules; delete one first`,
    );
  }
  await alertRules.insert(trx, row);
  forgetRules(workspaceId);
  return presentRule(await requireRule(trx, workspaceId, row.id));
}

export async function listRules(
  db: Db,
  workspaceId: string,
  page: PageRequest,
): Promise<Page<AlertRuleRecord>> {
  const { items, nextKey } = await alertRules.newest(db, workspaceId, page);
  return { items: items.map(presentRule), nextKey };
}

export async function getRule(db: Db, workspaceId: string, id: string): Promise<AlertRuleRecord> {
  return presentRule(await requireRule(db, workspaceId, id));
}

/**
 * Changes a rule's name, threshold, duration, hysteresis or whether it is enabled.
 * Disabling resolves its open alert; an episode in progress is judged by the new
 * settings from the next reading on.
 */
export async function updateRule(
  trx: Trx,
  workspaceId: string,
  id: string,
  body: Static<typeof UpdateAlertRuleBody>,
  now: string,
): Promise<AlertRuleRecord> {
  const row = await alertRules.lock(trx, workspaceId, id);
  if (row === undefined) throw errors.notFound('Alert rule');
  const next: AlertRuleRow = {
    ...row,
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.threshold !== undefined ? { threshold: body.threshold } : {}),
    ...(body.duration_minutes !== undefined ? { duration_minutes: body.duration_minutes } : {}),
    ...(body.hysteresis !== undefined ? { hysteresis: body.hysteresis } : {}),
    ...(body.enabled !== undefined ? { enabled: body.enabled ? 1 : 0 } : {}),
    updated_at: now,
  };
  checkShape(next);
  if (next.enabled === 0 && row.enabled === 1) {
    await resolveAlert(trx, row, {
      resolvedAt: now,
      value: null,
      resolution: 'rule_disabled',
      now,
    });
    next.open_alert_id = null;
    next.breach_started_at = null;
  }
  await alertRules.update(trx, workspaceId, id, {
    name: next.name,
    threshold: next.threshold,
    duration_minutes: next.duration_minutes,
    hysteresis: next.hysteresis,
    enabled: next.enabled,
    open_alert_id: next.open_alert_id,
    breach_started_at: next.breach_started_at,
    updated_at: now,
  });
  forgetRules(workspaceId);
  return getRule(trx, workspaceId, id);
}

/** Deletes a rule, resolving its open alert; its alerts stay listed. Answers it as it was. */
export async function deleteRule(
  trx: Trx,
  workspaceId: string,
  id: string,
  now: string,
): Promise<AlertRuleRecord> {
  const row = await alertRules.lock(trx, workspaceId, id);
  if (row === undefined) throw errors.notFound('Alert rule');
  await resolveAlert(trx, row, { resolvedAt: now, value: null, resolution: 'rule_deleted', now });
  await deleteRuleRow(trx, workspaceId, id);
  forgetRules(workspaceId);
  return presentRule({ ...row, open_alert_id: null, breach_started_at: null, updated_at: now });
}

/** The workspace of a rule named by id alone (the CLI), or 404. */
export async function workspaceOfRule(db: Db, id: string): Promise<string> {
  const workspaceId = await ruleWorkspace(db, id);
  if (workspaceId === undefined) throw errors.notFound('Alert rule');
  return workspaceId;
}
