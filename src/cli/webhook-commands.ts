import { Option, type Command, type OptionValues } from 'commander';
import type { Config } from '../config.js';
import type { Database, Trx } from '../db/database.js';
import { errors } from '../kernel/errors.js';

/** The command helpers of commands.ts: a write in one transaction, a read, a required option. */
export interface CommandKit {
  readonly action: <O extends OptionValues>(
    command: Command,
    work: (options: O, trx: Trx, config: Config) => Promise<object>,
  ) => Command;
  readonly read: <O extends OptionValues>(
    command: Command,
    work: (options: O, database: Database) => Promise<object>,
  ) => Command;
  readonly required: (flags: string, description: string) => Option;
}

// Loaded by each command's action only: `vitro --version` and the other commands
// start without the webhook and alert modules.
const webhooks = () => import('../modules/webhooks/index.js');
const alerts = () => import('../modules/alerts/index.js');
const validation = () => import('../kernel/validation.js');

const now = () => new Date().toISOString();
const commaList = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

function number(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) {
    throw errors.validation(`${name}: must be a number, got "${text}"`);
  }
  return value;
}

const integer = (name: string, text: string | undefined) => {
  const value = number(name, text);
  if (value !== undefined && !Number.isInteger(value)) {
    throw errors.validation(`${name}: must be a whole number, got "${text}"`);
  }
  return value;
};

/** Drops the keys whose value is undefined (options not given). */
const given = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

const eventTypes = (text: string | undefined) =>
  text === undefined ? undefined : text === 'all' ? null : commaList(text);

/** `vitro webhook …`: the webhook endpoints of docs/webhooks.md, and their delivery log. */
function registerWebhookCommands(program: Command, kit: CommandKit): void {
  const { action, read, required } = kit;
  const webhook = program
    .command('webhook')
    .description('Webhook endpoints: create, list, update, disable, rotate, deliveries');
  const endpoint = () => required('--endpoint <id>', 'endpoint id');

  action(
    webhook
      .command('create')
      .description(
        'Create an endpoint; its signing secret is shown only here -> {id, url, ..., secret}',
      )
      .addOption(required('--workspace <id>', 'workspace id'))
      .addOption(required('--url <url>', 'https URL (http only to WEBHOOK_ALLOWED_HOSTS)'))
      .option('--description <text>', 'what the endpoint is for')
      .option('--event-types <list>', 'comma list of event types (default: all)'),
    async (
      o: { workspace: string; url: string; description?: string; eventTypes?: string },
      trx,
      config,
    ) => {
      const { createEndpoint, CreateWebhookEndpointBody, targetPolicy } = await webhooks();
      const body = (await validation()).checkBody(
        CreateWebhookEndpointBody,
        given({ url: o.url, description: o.description, event_types: eventTypes(o.eventTypes) }),
      );
      return createEndpoint(
        trx,
        { workspaceId: o.workspace, memberId: null },
        body,
        targetPolicy(config.webhooks),
        now(),
      );
    },
  );
  read(
    webhook
      .command('list')
      .description("List a workspace's endpoints, newest first -> {endpoints: [...]}")
      .addOption(required('--workspace <id>', 'workspace id')),
    async (o: { workspace: string }, { db }) => {
      const { listEndpoints } = await webhooks();
      const page = await listEndpoints(db, o.workspace, { limit: 200, offset: 0, after: null });
      return { endpoints: page.items };
    },
  );
  read(
    webhook
      .command('show')
      .description('Show one endpoint -> {id, url, status, ...}')
      .addOption(endpoint()),
    async (o: { endpoint: string }, { db }) => {
      const { getEndpoint, workspaceOfEndpoint } = await webhooks();
      return getEndpoint(db, await workspaceOfEndpoint(db, o.endpoint), o.endpoint);
    },
  );
  action(
    webhook
      .command('update')
      .description("Change an endpoint's URL, description or event types -> {id, ...}")
      .addOption(endpoint())
      .option('--url <url>', 'new URL')
      .option('--description <text>', 'new description')
      .option('--event-types <list>', "comma list of event types, or 'all'"),
    async (
      o: { endpoint: string; url?: string; description?: string; eventTypes?: string },
      trx,
      config,
    ) => {
      const { UpdateWebhookEndpointBody, targetPolicy, updateEndpoint, workspaceOfEndpoint } =
        await webhooks();
      const body = (await validation()).checkBody(
        UpdateWebhookEndpointBody,
        given({ url: o.url, description: o.description, event_types: eventTypes(o.eventTypes) }),
      );
      const workspaceId = await workspaceOfEndpoint(trx, o.endpoint);
      return updateEndpoint(
        trx,
        workspaceId,
        o.endpoint,
        body,
        targetPolicy(config.webhooks),
        now(),
      );
    },
  );
  action(
    webhook
      .command('disable')
      .description('Stop sending to an endpoint; pending retries fail -> {id, status, ...}')
      .addOption(endpoint())
      .option('--reason <text>', 'why (shown as disabled_reason)', 'disabled by hand'),
    async (o: { endpoint: string; reason: string }, trx) => {
      const { disableEndpoint, workspaceOfEndpoint } = await webhooks();
      const workspaceId = await workspaceOfEndpoint(trx, o.endpoint);
      return disableEndpoint(trx, workspaceId, o.endpoint, o.reason, now());
    },
  );
  action(
    webhook
      .command('enable')
      .description(
        'Send to an endpoint again, from the events recorded now on -> {id, status, ...}',
      )
      .addOption(endpoint()),
    async (o: { endpoint: string }, trx) => {
      const { enableEndpoint, workspaceOfEndpoint } = await webhooks();
      return enableEndpoint(trx, await workspaceOfEndpoint(trx, o.endpoint), o.endpoint, now());
    },
  );
  action(
    webhook
      .command('rotate-secret')
      .description(
        'A new signing secret, shown only here; the old one signs for 24 h more -> {id, ..., secret}',
      )
      .addOption(endpoint()),
    async (o: { endpoint: string }, trx) => {
      const { rotateSecret, workspaceOfEndpoint } = await webhooks();
      return rotateSecret(trx, await workspaceOfEndpoint(trx, o.endpoint), o.endpoint, now());
    },
  );
  action(
    webhook
      .command('delete')
      .description('Delete an endpoint and its delivery log -> {id, ...} as it was')
      .addOption(endpoint()),
    async (o: { endpoint: string }, trx) => {
      const { deleteEndpoint, workspaceOfEndpoint } = await webhooks();
      return deleteEndpoint(trx, await workspaceOfEndpoint(trx, o.endpoint), o.endpoint);
    },
  );
  read(
    webhook
      .command('deliveries')
      .description("An endpoint's delivery log, newest first -> {deliveries: [...]}")
      .addOption(endpoint())
      .addOption(
        new Option('--status <status>', 'only these').choices(['pending', 'delivered', 'failed']),
      )
      .option('--limit <n>', 'how many, 1 to 200', '50'),
    async (
      o: { endpoint: string; status?: 'pending' | 'delivered' | 'failed'; limit: string },
      { db },
    ) => {
      const limit = integer('limit', o.limit)!;
      if (limit < 1 || limit > 200) throw errors.validation('limit: must be from 1 to 200');
      const { listDeliveries, workspaceOfEndpoint } = await webhooks();
      const page = await listDeliveries(
        db,
        await workspaceOfEndpoint(db, o.endpoint),
        o.endpoint,
        o.status === undefined ? {} : { status: o.status },
        { limit, offset: 0, after: null },
      );
      return { deliveries: page.items };
    },
  );
  action(
    webhook
      .command('redeliver')
      .description('Send a delivery again now, with the same webhook-id -> {id, status, ...}')
      .addOption(required('--delivery <id>', 'delivery id')),
    async (o: { delivery: string }, trx) =>
      (await webhooks()).redeliverById(trx, o.delivery, now()),
  );
}

/** `vitro alert-rule …` and `vitro alert list`: sensor alert rules and their alerts. */
function registerAlertCommands(program: Command, kit: CommandKit): void {
  const { action, read, required } = kit;
  const rule = program
    .command('alert-rule')
    .description('Sensor alert rules: create, list, update, delete');
  action(
    rule
      .command('create')
      .description('Create a rule on a room or a device -> {id, name, state, ...}')
      .addOption(required('--workspace <id>', 'workspace id'))
      .addOption(required('--name <name>', 'rule name'))
      .addOption(
        required('--type <type>', 'sensor type (temperature, humidity, ph, co2, light, other)'),
      )
      .option('--room <id>', 'watch every device in this room')
      .option('--device <id>', 'watch this device')
      .option('--above <value>', 'alert above this value')
      .option('--below <value>', 'alert below this value')
      .option('--no-readings', 'alert when no reading arrives for --minutes')
      .option('--minutes <n>', 'how long the condition must hold', '0')
      .option(
        '--hysteresis <value>',
        'how far back inside the range a reading resolves the alert',
        '0',
      ),
    async (
      o: {
        workspace: string;
        name: string;
        type: string;
        room?: string;
        device?: string;
        above?: string;
        below?: string;
        readings: boolean;
        minutes: string;
        hysteresis: string;
      },
      trx,
    ) => {
      const conditions = [
        o.above !== undefined ? 'above' : null,
        o.below !== undefined ? 'below' : null,
        o.readings ? null : 'no_readings',
      ].filter((c) => c !== null);
      if (conditions.length !== 1) {
        throw errors.validation('condition: give exactly one of --above, --below, --no-readings');
      }
      const { createRule, CreateAlertRuleBody } = await alerts();
      const body = (await validation()).checkBody(
        CreateAlertRuleBody,
        given({
          name: o.name,
          sensor_type: o.type,
          room_id: o.room,
          device_id: o.device,
          condition: conditions[0],
          threshold: number('threshold', o.above ?? o.below),
          duration_minutes: integer('minutes', o.minutes),
          hysteresis: number('hysteresis', o.hysteresis),
        }),
      );
      return createRule(trx, { workspaceId: o.workspace, memberId: null }, body, now());
    },
  );
  read(
    rule
      .command('list')
      .description("List a workspace's rules with their state -> {rules: [...]}")
      .addOption(required('--workspace <id>', 'workspace id')),
    async (o: { workspace: string }, { db }) => {
      const { listRules } = await alerts();
      return {
        rules: (await listRules(db, o.workspace, { limit: 200, offset: 0, after: null })).items,
      };
    },
  );
  action(
    rule
      .command('update')
      .description(
        "Change a rule's name, threshold, minutes, hysteresis or whether it is on -> {id, ...}",
      )
      .addOption(required('--rule <id>', 'rule id'))
      .option('--name <name>', 'new name')
      .option('--threshold <value>', 'new threshold')
      .option('--minutes <n>', 'new duration')
      .option('--hysteresis <value>', 'new hysteresis')
      .addOption(
        new Option('--enabled <on>', 'false resolves its open alert').choices(['true', 'false']),
      ),
    async (
      o: {
        rule: string;
        name?: string;
        threshold?: string;
        minutes?: string;
        hysteresis?: string;
        enabled?: string;
      },
      trx,
    ) => {
      const { updateRule, UpdateAlertRuleBody, workspaceOfRule } = await alerts();
      const body = (await validation()).checkBody(
        UpdateAlertRuleBody,
        given({
          name: o.name,
          threshold: number('threshold', o.threshold),
          duration_minutes: integer('minutes', o.minutes),
          hysteresis: number('hysteresis', o.hysteresis),
          enabled: o.enabled === undefined ? undefined : o.enabled === 'true',
        }),
      );
      return updateRule(trx, await workspaceOfRule(trx, o.rule), o.rule, body, now());
    },
  );
  action(
    rule
      .command('delete')
      .description('Delete a rule, resolving its open alert -> {id, ...} as it was')
      .addOption(required('--rule <id>', 'rule id')),
    async (o: { rule: string }, trx) => {
      const { deleteRule, workspaceOfRule } = await alerts();
      return deleteRule(trx, await workspaceOfRule(trx, o.rule), o.rule, now());
    },
  );

  const alert = program.command('alert').description('Sensor alerts');
  read(
    alert
      .command('list')
      .description("A workspace's alerts, most recently opened first -> {alerts: [...]}")
      .addOption(required('--workspace <id>', 'workspace id'))
      .addOption(new Option('--status <status>', 'only these').choices(['open', 'resolved'])),
    async (o: { workspace: string; status?: 'open' | 'resolved' }, { db }) => {
      const { listAlerts } = await alerts();
      const page = await listAlerts(
        db,
        o.workspace,
        o.status === undefined ? {} : { status: o.status },
        { limit: 200, offset: 0, after: null },
      );
      return { alerts: page.items };
    },
  );
}

export function registerPushCommands(program: Command, kit: CommandKit): void {
  registerWebhookCommands(program, kit);
  registerAlertCommands(program, kit);
}
