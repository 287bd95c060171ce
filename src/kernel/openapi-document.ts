import { SCOPES } from './access.js';

/** The operation groups of the reference, each with what it covers. */
export const TAGS: Readonly<Record<string, string>> = {
  Account: 'The calling key and its workspace',
  'API keys': 'Workspace API keys, created and revoked from the console by admins and owners',
  'Change history':
    'What happened to plants and explants (and sensor alerts), oldest first, for incremental sync',
  Comments: 'Notes and discussion on lab records, with mentions and references',
  Contamination: 'Contamination observations on plants and explants',
  'Demand signals': 'Sales and order demand per genus, which orders the task list',
  Devices: 'Sensors and controllers, their tokens, heartbeats and status events',
  Equipment: 'The equipment library, its use, calibration, maintenance and faults',
  Explants: 'Cultures: vessels and plantlets on their way from a plant',
  Insights:
    'Answers from the records: contamination sources, multiplication rates, losses by stage, production forecasts',
  Imports: "A lab's spreadsheets of plants, explants and rooms, checked row by row",
  Labels: 'QR and barcode labels: resolving a code, recording a scan',
  Members:
    'The people of the workspace, their roles and their sign-in links (console, admins and owners)',
  'Media batches':
    'Batches of culture medium made from a recipe version and stock lots, and the cultures put on them',
  'Media files': 'Photos attached to plants, explants, contamination logs and SOPs',
  'Media recipes': 'Culture media formulations, versioned',
  Notifications:
    'Each person’s own notifications (mentions, tasks, transfers due, alerts, contaminations) and what they are told of',
  Plants: 'Mother plants and culture lines',
  Pricing: 'Culture line prices and their history',
  Rooms: 'The lab’s rooms, with their devices, cultures and latest sensor values',
  Sessions: 'People signing in to the console with a personal sign-in link, and out',
  Search: 'Finding plants, explants, tasks, SOPs, rooms and contaminations by name',
  'Sell-through': 'Store order lines and sales per culture line',
  Stock:
    'Chemicals, agar and vessels with their lots: received, counted and taken by media batches',
  'Sensor alerts':
    'Rules on sensor readings (out of range for a while, or silent) and the alerts they open',
  'Sensor readings': 'Environmental readings from the lab’s sensors',
  'SOP runs': 'Standard operating procedures as performed, step by step',
  SOPs: 'Standard operating procedures and the version in force',
  Stages: 'Stage history of plants and explants',
  Tasks: 'Scheduled lab work',
  Transfers: 'Transfers onto fresh media',
  Webhooks:
    'Endpoints that receive the change history as signed HTTP requests, and their delivery log',
};

type Json = Record<string, unknown>;

/** Component names: a schema's own `$id` (Plant, Error, PageMeta, …), so generated clients name their types. */
export function componentName(schema: { $id?: unknown }, index: number): string {
  return typeof schema.$id === 'string' ? schema.$id : `def-${index}`;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function usedTagsAndSchemes(paths: Json): { tags: Set<string>; schemes: Set<string> } {
  const tags = new Set<string>();
  const schemes = new Set<string>(['bearerAuth']);
  for (const methods of Object.values(paths)) {
    for (const op of Object.values(methods as Json)) {
      if (!isObject(op)) continue;
      for (const tag of (op.tags as string[] | undefined) ?? []) tags.add(tag);
      for (const requirement of (op.security as Json[] | undefined) ?? []) {
        for (const scheme of Object.keys(requirement)) schemes.add(scheme);
      }
    }
  }
  return { tags, schemes };
}

/** An operation whose body may be left out says so: its requestBody is not required. */
function markOptionalBodies(paths: Json): void {
  for (const methods of Object.values(paths)) {
    for (const op of Object.values(methods as Json)) {
      if (!isObject(op) || op['x-body-optional'] !== true) continue;
      delete op['x-body-optional'];
      if (isObject(op.requestBody)) op.requestBody.required = false;
    }
  }
}

/** An operation whose body is a file documents its media types as its requestBody. */
function addRawBodies(paths: Json): void {
  for (const methods of Object.values(paths)) {
    for (const op of Object.values(methods as Json)) {
      if (!isObject(op) || !isObject(op['x-raw-body'])) continue;
      const raw = op['x-raw-body'] as { mediaTypes: string[]; description: string };
      delete op['x-raw-body'];
      op.requestBody = {
        required: true,
        description: raw.description,
        content: Object.fromEntries(
          raw.mediaTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
        ),
      };
    }
  }
}

/** A list that exports CSV documents the CSV answer of its 200 beside the JSON one. */
function addCsvAnswers(paths: Json): void {
  for (const methods of Object.values(paths)) {
    for (const op of Object.values(methods as Json)) {
      if (!isObject(op) || op['x-csv'] !== true) continue;
      const ok = (op.responses as Json | undefined)?.['200'];
      if (!isObject(ok) || !isObject(ok.content)) continue;
      ok.content['text/csv'] = {
        schema: {
          type: 'string',
          description:
            'Asked with Accept: text/csv: a header row of the item fields, then every matching row',
        },
      };
    }
  }
}

/**
 * The finishing touches of the generated document: only the tags and security
 * schemes operations use (each tag described), optional bodies not required, the
 * CSV answers of the lists that export, the license, and the list of scopes. Named schemas (an `$id`: records, the page
 * meta, the error envelope) are components already, by `componentName`.
 */
export function finishDocument(document: Json): Json {
  const paths = (document.paths ?? {}) as Json;
  markOptionalBodies(paths);
  addRawBodies(paths);
  addCsvAnswers(paths);
  const { tags, schemes } = usedTagsAndSchemes(paths);
  const components = (document.components ?? {}) as Json;
  const securitySchemes = Object.fromEntries(
    Object.entries((components.securitySchemes ?? {}) as Json).filter(([name]) =>
      schemes.has(name),
    ),
  );
  return {
    ...document,
    info: { ...(document.info as Json), license: { name: 'MIT', identifier: 'MIT' } },
    tags: Object.entries(TAGS)
      .filter(([name]) => tags.has(name))
      .map(([name, description]) => ({ name, description })),
    components: { ...components, securitySchemes },
    'x-scopes': [...SCOPES],
  };
}
