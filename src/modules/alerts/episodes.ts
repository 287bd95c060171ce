import type { Trx } from '../../db/database.js';
import { newId } from '../../kernel/ids.js';
import { deviceRoom } from '../devices/index.js';
import { recordChangeEvent } from '../events/index.js';
import { notify } from '../notifications/index.js';
import { alertRules, alerts, type AlertRow, type AlertRuleRow } from './alerts.repository.js';
import type { AlertRecord } from './alerts.schemas.js';

export function presentAlert(row: AlertRow): AlertRecord {
  return {
    id: row.id,
    rule_id: row.rule_id,
    status: row.status as AlertRecord['status'],
    sensor_type: row.sensor_type,
    room_id: row.room_id,
    device_id: row.device_id,
    condition: row.condition as AlertRecord['condition'],
    threshold: row.threshold,
    started_at: row.started_at,
    opened_at: row.opened_at,
    opened_value: row.opened_value,
    resolved_at: row.resolved_at,
    resolved_value: row.resolved_value,
    resolution: row.resolution as AlertRecord['resolution'],
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * Opens the rule's alert: an `alerts` row, the rule pointing at it, and a change-feed
 * event (`sensor_alert.opened`, payload the alert) in the same transaction, so webhooks
 * and sync clients learn of it exactly when it is stored.
 */
export async function openAlert(
  trx: Trx,
  rule: AlertRuleRow,
  at: { startedAt: string; openedAt: string; value: number | null; now: string },
): Promise<AlertRow> {
  const row: AlertRow = {
    id: newId(),
    workspace_id: rule.workspace_id,
    rule_id: rule.id,
    status: 'open',
    sensor_type: rule.sensor_type,
    room_id: rule.room_id,
    device_id: rule.device_id,
    condition: rule.condition,
    threshold: rule.threshold,
    started_at: at.startedAt,
    opened_at: at.openedAt,
    opened_value: at.value,
    resolved_at: null,
    resolved_value: null,
    resolution: null,
    created_at: at.now,
    updated_at: at.now,
  };
  await alerts.insert(trx, row);
  await alertRules.update(trx, rule.workspace_id, rule.id, {
    open_alert_id: row.id,
    breach_started_at: at.startedAt,
  });
  await recordChangeEvent(trx, {
    workspaceId: rule.workspace_id,
    entityType: 'sensor_alert',
    entityId: row.id,
    eventType: 'opened',
    eventTime: at.openedAt,
    recordedBy: null,
    payload: presentAlert(row),
  });
  await notifyFollowers(trx, rule, row, 'alert_opened', at.now);
  return row;
}

/**
 * Tells those who follow the alert's room (a device's alert: the device's room;
 * none: those who follow every room) that it opened or resolved.
 */
async function notifyFollowers(
  trx: Trx,
  rule: AlertRuleRow,
  alert: AlertRow,
  kind: 'alert_opened' | 'alert_resolved',
  now: string,
): Promise<void> {
  const roomId =
    alert.room_id ??
    (alert.device_id === null ? null : await deviceRoom(trx, alert.workspace_id, alert.device_id));
  await notify(
    trx,
    alert.workspace_id,
    [
      {
        kind,
        eventKey: `${kind}:${alert.id}`,
        record: { type: 'sensor_alert', id: alert.id, label: rule.name },
        roomId,
        actorId: null,
        to: { room: roomId },
      },
    ],
    now,
  );
}

/** Resolves the rule's open alert (the episode ends), with its change-feed event. */
export async function resolveAlert(
  trx: Trx,
  rule: AlertRuleRow,
  at: {
    resolvedAt: string;
    value: number | null;
    resolution: 'recovered' | 'rule_disabled' | 'rule_deleted';
    now: string;
  },
): Promise<void> {
  if (rule.open_alert_id === null) return;
  const open = await alerts.find(trx, rule.workspace_id, rule.open_alert_id);
  await alertRules.update(trx, rule.workspace_id, rule.id, {
    open_alert_id: null,
    breach_started_at: null,
  });
  if (open === undefined || open.status !== 'open') return;
  const resolved: AlertRow = {
    ...open,
    status: 'resolved',
    resolved_at: at.resolvedAt,
    resolved_value: at.value,
    resolution: at.resolution,
    updated_at: at.now,
  };
  await alerts.update(trx, rule.workspace_id, open.id, {
    status: resolved.status,
    resolved_at: resolved.resolved_at,
    resolved_value: resolved.resolved_value,
    resolution: resolved.resolution,
    updated_at: resolved.updated_at,
  });
  await recordChangeEvent(trx, {
    workspaceId: rule.workspace_id,
    entityType: 'sensor_alert',
    entityId: open.id,
    eventType: 'resolved',
    eventTime: at.resolvedAt,
    recordedBy: null,
    payload: presentAlert(resolved),
  });
  await notifyFollowers(trx, rule, resolved, 'alert_resolved', at.now);
}
