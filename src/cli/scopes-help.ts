import { minimumRoleForScope, SCOPES, type Scope } from '../kernel/access.js';

/** What each scope lets a key do, in a few words (docs/access.md says more). */
export const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  'read:workspace': 'read workspace, rooms, people and lab settings',
  'write:workspace': 'change lab settings (each setting names the role it needs)',
  'read:plants': 'read plant records',
  'write:plants': 'create and update plant records',
  'read:explants': 'read explant records',
  'write:explants': 'create and update explant records',
  'read:contaminations': 'read contamination logs',
  'write:contaminations': 'submit contamination observations',
  'read:tasks': 'read scheduled tasks and due work',
  'write:tasks': 'create, update, complete and reopen tasks',
  'write:demand': 'push demand per genus (task priorities)',
  'read:comments': 'read notes and comments on lab records',
  'write:comments': 'add notes and comments to lab records',
  'read:assets': 'read photos and media attached to lab records',
  'write:assets': 'attach photos and media to lab records',
  'read:media_recipes': 'read media recipe data',
  'write:media_recipes': 'create and update media recipes',
  'read:media_batches': 'read media batches and the cultures on them',
  'write:media_batches': 'make and update media batches (taking their components from stock)',
  'read:stock': 'read stock items and their lots',
  'write:stock': 'receive and count stock lots; managers also edit stock items',
  'read:transfers': 'read transfer and stage history',
  'write:transfers': 'record transfers and advance stages',
  'read:sops': 'read SOP templates and steps',
  'write:sops': 'create and edit SOPs, draft versions and make one effective',
  'read:sop_runs': 'read SOP execution history',
  'write:sop_runs': 'create and advance SOP run sessions',
  'write:sop_steps': 'post confirmations, scans, measurements on run steps',
  'read:labels': 'resolve QR/barcode label codes to entity records',
  'write:label_scans': 'submit label scan events',
  'read:devices': 'list registered devices and status',
  'write:devices': 'register devices, heartbeats, device tokens',
  'read:sensor_readings': 'query historical sensor readings',
  'write:sensor_readings': 'submit environmental sensor readings',
  'write:device_events': 'submit device status events',
  'read:equipment': 'read the equipment library and maintenance history',
  'write:equipment': 'add, edit and retire equipment in the library',
  'write:equipment_events': 'record equipment use, calibration, service or fault',
  'read:pricing': 'read culture line prices and history',
  'read:commerce': 'read store order lines and sell-through',
  'read:events': 'read plant and explant edit history (audit events)',
  'read:webhooks': 'read webhook endpoints and their delivery log',
  'write:webhooks': 'manage webhook endpoints, secrets and redeliveries',
  'read:notifications': "read the key owner's own notifications and settings",
  'write:notifications': "mark the key owner's own notifications read, change their settings",
  'read:insights':
    'read contamination, multiplication and stage-loss figures and production forecasts',
};

/** The scope list printed after `vitro key create --help`. */
export function scopesHelp(): string {
  const width = Math.max(...SCOPES.map((scope) => scope.length)) + 2;
  const lines = SCOPES.map((scope) => {
    const role = minimumRoleForScope(scope);
    const needs = role === 'manager' || role === 'admin' ? ` [${role}+]` : '';
    return `  ${scope.padEnd(width)}${SCOPE_DESCRIPTIONS[scope]}${needs}`;
  });
  return [
    '',
    `Scopes (--scopes): all (the default: all ${SCOPES.length}), none (or ''), or a comma list of:`,
    ...lines,
    '',
    "A key never does more than its owner may: writes need the owner's role to be",
    'member or above, [manager+] scopes manager or above, [admin+] scopes admin or',
    'above, and the plan must include the operation (docs/access.md).',
  ].join('\n');
}
