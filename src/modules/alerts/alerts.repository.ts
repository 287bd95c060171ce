import type { Db, Trx } from '../../db/database.js';
import { isPostgres } from '../../db/database.js';
import { fetchPage, type Ordering } from '../../db/pages.js';
import type { AlertRuleTable, AlertTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';
import type { Page, PageRequest } from '../../db/pages.js';

export type AlertRuleRow = AlertRuleTable;
export type AlertRow = AlertTable;

const RULE_COLUMNS = [
  'id',
  'workspace_id',
  'name',
  'sensor_type',
  'room_id',
  'device_id',
  'condition',
  'threshold',
  'duration_minutes',
  'hysteresis',
  'enabled',
  'breach_started_at',
  'open_alert_id',
  'created_by',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof AlertRuleRow)[];

const ALERT_COLUMNS = [
  'id',
  'workspace_id',
  'rule_id',
  'status',
  'sensor_type',
  'room_id',
  'device_id',
  'condition',
  'threshold',
  'started_at',
  'opened_at',
  'opened_value',
  'resolved_at',
  'resolved_value',
  'resolution',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof AlertRow)[];

export const alertRules = workspaceTable('alert_rules', RULE_COLUMNS);
export const alerts = workspaceTable('alerts', ALERT_COLUMNS);

export async function countRules(db: Db, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('alert_rules')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The workspace's enabled rules (what readings are checked against). */
export function enabledRules(db: Db, workspaceId: string): Promise<AlertRuleRow[]> {
  return db
    .selectFrom('alert_rules')
    .select(RULE_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('enabled', '=', 1)
    .execute();
}

/**
 * Rules by id, as stored now; with `lock`, held until the transaction ends
 * (PostgreSQL), so two batches arriving together judge one episode once.
 */
export function rulesByIds(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
  lock: boolean,
): Promise<AlertRuleRow[]> {
  let query = db
    .selectFrom('alert_rules')
    .select(RULE_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .orderBy('id');
  if (lock && isPostgres(db)) query = query.forNoKeyUpdate();
  return query.execute();
}

export async function deleteRuleRow(trx: Trx, workspaceId: string, id: string): Promise<void> {
  await trx
    .deleteFrom('alert_rules')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** Enabled silence rules (no readings for N minutes) without an open alert, of every workspace. */
export function quietRuleCandidates(db: Db, limit: number): Promise<AlertRuleRow[]> {
  return db
    .selectFrom('alert_rules')
    .select(RULE_COLUMNS)
    .where('condition', '=', 'no_readings')
    .where('enabled', '=', 1)
    .where('open_alert_id', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}

const NEWEST_OPENED: Ordering = { columns: ['opened_at', 'id'], direction: 'desc' };

export function listAlertPage(
  db: Db,
  workspaceId: string,
  filter: { status?: string; ruleId?: string },
  page: PageRequest,
): Promise<Page<AlertRow>> {
  let query = db.selectFrom('alerts').select(ALERT_COLUMNS).where('workspace_id', '=', workspaceId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.ruleId !== undefined) query = query.where('rule_id', '=', filter.ruleId);
  return fetchPage(query, NEWEST_OPENED, page);
}

/** The workspace a rule belongs to (the CLI names rules by id alone). */
export async function ruleWorkspace(db: Db, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('alert_rules')
    .select('workspace_id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.workspace_id;
}
