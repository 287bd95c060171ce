import { Option, type Command } from 'commander';
import { errors } from '../kernel/errors.js';
import type { CommandKit } from './command-kit.js';

// Loaded by each command's action only: `vitro --version` and the other commands
// start without the webhook and alert modules.
const webhooks = () => import('../modules/webhooks/index.js');
export const validation = () => import('../kernel/validation.js');

export const now = () => new Date().toISOString();
const commaList = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

export function number(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) {
    throw errors.validation(`${name}: must be a number, got "${text}"`);
  }
  return value;
}

export const integer = (name: string, text: string | undefined) => {
  const value = number(name, text);
  if (value !== undefined && !Number.isInteger(value)) {
    throw errors.validation(`${name}: must be a whole number, got "${text}"`);
  }
  return value;
};

/** Drops the keys whose value is undefined (options not given). */
export const given = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

const eventTypes = (text: string | undefined) =>
  text === undefined ? undefined : text === 'all' ? null : commaList(text);

/** `vitro webhook …`: the webhook endpoints of docs/webhooks.md, and their delivery log. */
export function registerWebhookCommands(webhook: Command, kit: CommandKit): void {
  const { action, read, required } = kit;
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
