import type { Routes } from '../../kernel/routes/index.js';
import {
  Alert,
  AlertParams,
  AlertQuery,
  AlertRule,
  AlertRuleParams,
  CreateAlertRuleBody,
  UpdateAlertRuleBody,
} from './alerts.schemas.js';
import { getAlert, listAlerts } from './alerts.service.js';
import { createRule, deleteRule, getRule, listRules, updateRule } from './rules.service.js';

const TAGS = ['Sensor alerts'];
const RULE = { params: AlertRuleParams, notFound: 'Alert rule' } as const;

export function registerAlertRoutes(routes: Routes): void {
  routes.list({
    url: '/api/v1/alert-rules',
    operationId: 'listAlertRules',
    tags: TAGS,
    summary: 'List sensor alert rules',
    description: 'Newest first, each with its state: ok, breaching or alerting.',
    scope: 'read:sensor_readings',
    failureCode: 'ALERT_QUERY_FAILED',
    paging: { list: 'alert-rules' },
    item: AlertRule,
    handler: (_req, ctx) => listRules(ctx.db, ctx.principal.workspaceId, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/alert-rules',
    operationId: 'createAlertRule',
    tags: TAGS,
    summary: 'Create a sensor alert rule',
    description:
      'Watches one sensor type in a room (every device there) or on one device: `above` or ' +
      '`below` a threshold for `duration_minutes`, judged on the readings as they arrive, or ' +
      '`no_readings` for `duration_minutes` (a dead sensor), checked every 30 seconds. An alert ' +
      'opens once per episode and resolves once the readings are back inside the range by ' +
      '`hysteresis`; each is a change-history event (entity sensor_alert) and a webhook. At most ' +
      '100 rules per workspace (409 CONFLICT).',
    scope: 'write:devices',
    failureCode: 'ALERT_RULE_UPDATE_FAILED',
    errors: ['NOT_FOUND', 'CONFLICT'],
    body: CreateAlertRuleBody,
    data: AlertRule,
    handler: async (req, ctx) => ({
      data: await createRule(ctx.trx, ctx.principal, req.body, ctx.now),
    }),
  });

  routes.read({
    url: '/api/v1/alert-rules/:id',
    operationId: 'getAlertRule',
    tags: TAGS,
    summary: 'Get a sensor alert rule',
    scope: 'read:sensor_readings',
    failureCode: 'ALERT_QUERY_FAILED',
    ...RULE,
    data: AlertRule,
    handler: async (req, ctx) => ({
      data: await getRule(ctx.db, ctx.principal.workspaceId, req.params.id),
    }),
  });

  routes.write({
    method: 'PATCH',
    url: '/api/v1/alert-rules/:id',
    operationId: 'updateAlertRule',
    tags: TAGS,
    summary: 'Update a sensor alert rule',
    description:
      'Changes its name, threshold, duration, hysteresis or `enabled`; disabling resolves its ' +
      'open alert. What it watches and its condition are fixed: make a new rule for others.',
    scope: 'write:devices',
    failureCode: 'ALERT_RULE_UPDATE_FAILED',
    ...RULE,
    body: UpdateAlertRuleBody,
    data: AlertRule,
    handler: async (req, ctx) => ({
      data: await updateRule(ctx.trx, ctx.principal.workspaceId, req.params.id, req.body, ctx.now),
    }),
  });

  routes.write({
    method: 'DELETE',
    url: '/api/v1/alert-rules/:id',
    operationId: 'deleteAlertRule',
    tags: TAGS,
    summary: 'Delete a sensor alert rule',
    description: 'Resolves its open alert; its alerts stay listed. Answers the rule as it was.',
    scope: 'write:devices',
    failureCode: 'ALERT_RULE_UPDATE_FAILED',
    ...RULE,
    data: AlertRule,
    handler: async (req, ctx) => ({
      data: await deleteRule(ctx.trx, ctx.principal.workspaceId, req.params.id, ctx.now),
    }),
  });

  routes.list({
    url: '/api/v1/alerts',
    operationId: 'listAlerts',
    tags: TAGS,
    summary: 'List sensor alerts',
    description: 'Most recently opened first; `status=open` lists the alerts open now.',
    scope: 'read:sensor_readings',
    failureCode: 'ALERT_QUERY_FAILED',
    querystring: AlertQuery,
    paging: { list: 'alerts' },
    item: Alert,
    handler: (req, ctx) => listAlerts(ctx.db, ctx.principal.workspaceId, req.query, ctx.page),
  });

  routes.read({
    url: '/api/v1/alerts/:id',
    operationId: 'getAlert',
    tags: TAGS,
    summary: 'Get a sensor alert',
    scope: 'read:sensor_readings',
    failureCode: 'ALERT_QUERY_FAILED',
    params: AlertParams,
    notFound: 'Alert',
    data: Alert,
    handler: async (req, ctx) => ({
      data: await getAlert(ctx.db, ctx.principal.workspaceId, req.params.id),
    }),
  });
}
