import { Option, type Command } from 'commander';
import { errors } from '../kernel/errors.js';
import type { CommandKit } from './command-kit.js';
import { given, integer, now, number, validation } from './webhook-commands.js';

const alerts = () => import('../modules/alerts/index.js');

/** `vitro alert-rule …` and `vitro alert list`: sensor alert rules and their alerts. */
export function registerAlertRuleCommands(rule: Command, kit: CommandKit): void {
  const { action, read, required } = kit;
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
}

/** `vitro alert list`. */
export function registerAlertCommands(alert: Command, kit: CommandKit): void {
  const { read, required } = kit;
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
