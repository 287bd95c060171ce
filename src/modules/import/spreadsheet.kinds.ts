import type { Db, Trx } from '../../db/database.js';
import type { Scope } from '../../kernel/access.js';
import { errors } from '../../kernel/errors.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { checkBody } from '../../kernel/validation.js';
import {
  checkExplantUpdate,
  checkNewExplant,
  CreateExplantBody,
  createExplants,
  EXPLANT_STATUSES,
  findExplantIdentities,
  newExplantSetup,
  UpdateExplantBody,
  updateExplant,
} from '../explants/index.js';
import { createRoom, customFieldDefinitions, listAllRooms, RoomName } from '../lab/index.js';
import {
  checkNewPlant,
  checkPlantUpdate,
  CreatePlantBody,
  createPlants,
  listPlantIdentities,
  newPlantSetup,
  PLANT_STATUSES,
  UpdatePlantBody,
  updatePlant,
} from '../plants/index.js';
import { newId } from '../../kernel/ids.js';
import Type, { type Static } from 'typebox';
import {
  choiceOf,
  countOf,
  customFieldColumns,
  customFieldsOfCells,
  failedRow,
  textOf,
  type RowResult,
} from './spreadsheet.cells.js';
import type { Column, ColumnMap } from './spreadsheet.columns.js';
import type { Cell } from './spreadsheet.read.js';

/*
 * The kinds of record a spreadsheet imports: their columns, how a row becomes the
 * API's body (checked by the API's own schema and service checks), which stored
 * record a row is, and how the rows are written.
 */

export interface SheetRow {
  /** The row's number in the spreadsheet (the header is 1). */
  readonly row: number;
  readonly cells: ReadonlyMap<string, Cell>;
}

export interface ImportContext {
  readonly principal: Principal;
  readonly now: string;
  readonly records: RecordLookup;
}

/** A file's rows checked: each row's outcome, and the writes that make them so. */
export interface SheetPlan {
  readonly results: RowResult[];
  apply(trx: Trx): Promise<void>;
}

export interface SheetKind {
  /** The scope a key needs to import this kind. */
  readonly scope: Scope;
  columns(db: Db, workspaceId: string): Promise<Column[]>;
  plan(
    db: Db,
    context: ImportContext,
    map: ColumnMap,
    rows: readonly SheetRow[],
  ): Promise<SheetPlan>;
}

/** The fields set, undefined ones left out (an absent cell changes nothing). */
const defined = <T extends Record<string, unknown>>(fields: T): T =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as T;

const text = (cells: ReadonlyMap<string, Cell>, field: string) => {
  const cell = cells.get(field);
  return cell === undefined || cell === null ? undefined : textOf(cell);
};

/** Rooms by name (letter case and spaces aside), for a row's Room. */
async function roomResolver(db: Db, workspaceId: string) {
  const byName = new Map<string, string[]>();
  for (const room of await listAllRooms(db, workspaceId)) {
    const key = room.name.trim().toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), room.id]);
  }
  return (name: string | undefined): string | undefined => {
    if (name === undefined) return undefined;
    const found = byName.get(name.trim().toLowerCase()) ?? [];
    if (found.length === 1) return found[0];
    throw errors.validation(
      found.length === 0
        ? `room: the lab has no room named "${name}"`
        : `room: ${found.length} rooms are named "${name}"; rename one`,
    );
  };
}

/** Remembers a key's first row: a later row with it is refused. */
function firstRows(what: string) {
  const seen = new Map<string, number>();
  return (key: string | null, row: number): void => {
    if (key === null) return;
    const first = seen.get(key);
    if (first !== undefined) throw errors.validation(`${what} is also on row ${first}`);
    seen.set(key, row);
  };
}

/** A row already known to be wrong (its Plant named none), carried to its turn. */
class RowFailure extends Error {
  constructor(readonly result: RowResult) {
    super(result.error ?? 'row failed');
  }
}

/** What a row is: a new record's body, or a stored record and the PATCH it would make. */
type Decision<C, U> =
  | { readonly create: C }
  | { readonly update: { readonly id: string; readonly body: U; readonly changed: boolean } };

/**
 * Each row decided (`decide` throws the API's refusal of a wrong row), and the
 * writes of the decisions: the new records at once, then each changed one.
 */
async function planRows<C, U>(
  rows: readonly SheetRow[],
  decide: (row: SheetRow) => Promise<Decision<C, U>>,
  failed: (row: number, error: unknown) => RowResult,
  write: {
    create(trx: Trx, bodies: C[]): Promise<{ id: string }[]>;
    update(trx: Trx, id: string, body: U): Promise<unknown>;
  },
): Promise<SheetPlan> {
  const results: RowResult[] = [];
  const creates: { result: RowResult; body: C }[] = [];
  const updates: { id: string; body: U }[] = [];
  for (const sheetRow of rows) {
    const row = sheetRow.row;
    try {
      const decision = await decide(sheetRow);
      if ('create' in decision) {
        const result: RowResult = { row, status: 'created', id: null, column: null, error: null };
        creates.push({ result, body: decision.create });
        results.push(result);
        continue;
      }
      const { id, body, changed } = decision.update;
      if (changed) updates.push({ id, body });
      const status = changed ? 'updated' : 'unchanged';
      results.push({ row, status, id, column: null, error: null });
    } catch (error) {
      results.push(failed(row, error));
    }
  }
  return {
    results,
    async apply(trx) {
      const created = await write.create(
        trx,
        creates.map((create) => create.body),
      );
      created.forEach((record, i) => (creates[i]!.result.id = record.id));
      for (const { id, body } of updates) await write.update(trx, id, body);
    },
  };
}

const PLANT_COLUMNS: Column[] = [
  { field: 'species', names: ['Species', 'Scientific name', 'Botanical name'], required: true },
  { field: 'common_name', names: ['Common name', 'Name'] },
  { field: 'genus', names: ['Genus'] },
  { field: 'family', names: ['Family'] },
  { field: 'cultivar', names: ['Cultivar', 'Variety'] },
  { field: 'source', names: ['Source'] },
  { field: 'notes', names: ['Notes'] },
  { field: 'status', names: ['Status'] },
  { field: 'external_id', names: ['External ID', 'Plant code'] },
  { field: 'initial_stage', names: ['Stage', 'Initial stage'] },
  { field: 'room', names: ['Room'] },
];

/**
 * Plants: a row whose External ID a plant of the lab has (any case) updates it
 * (a PATCH of the fields it fills in); any other row creates a plant, in its
 * Stage and Room. Stage and Room of an existing plant are not moves: left as they are.
 */
export const plantSheet: SheetKind = {
  scope: 'write:plants',
  columns: async (db, workspaceId) => [
    ...PLANT_COLUMNS,
    ...customFieldColumns(await customFieldDefinitions(db, workspaceId, 'plant')),
  ],
  async plan(db, { principal, now }, map, rows) {
    const workspaceId = principal.workspaceId;
    const setup = await newPlantSetup(db, workspaceId);
    const room = await roomResolver(db, workspaceId);
    const byExternalId = new Map(
      (await listPlantIdentities(db, workspaceId)).flatMap((plant) =>
        plant.external_id_key === null ? [] : [[plant.external_id_key, plant.id] as const],
      ),
    );
    const once = firstRows('external_id: this External ID');
    return planRows<Static<typeof CreatePlantBody>, Static<typeof UpdatePlantBody>>(
      rows,
      async ({ row, cells }) => {
        const externalId = text(cells, 'external_id');
        once(externalId?.toLowerCase() ?? null, row);
        const status = cells.get('status');
        const fields = defined({
          species: text(cells, 'species'),
          common_name: text(cells, 'common_name'),
          genus: text(cells, 'genus'),
          family: text(cells, 'family'),
          cultivar: text(cells, 'cultivar'),
          source: text(cells, 'source'),
          notes: text(cells, 'notes'),
          status: status == null ? undefined : choiceOf(status, PLANT_STATUSES),
          external_id: externalId,
          custom_fields: customFieldsOfCells(cells, setup.definitions),
        });
        const id =
          externalId === undefined ? undefined : byExternalId.get(externalId.toLowerCase());
        if (id !== undefined) {
          const body = checkBody(UpdatePlantBody, fields);
          return { update: { id, body, changed: await checkPlantUpdate(db, principal, id, body) } };
        }
        const body = checkBody(
          CreatePlantBody,
          defined({
            ...fields,
            initial_stage: text(cells, 'initial_stage'),
            room_id: room(text(cells, 'room')),
          }),
        );
        checkNewPlant(setup, body);
        return { create: body };
      },
      (row, error) => failedRow(row, error, map, { room_id: 'room' }),
      {
        create: (trx, bodies) => createPlants(trx, principal, setup, bodies, now),
        update: (trx, id, body) => updatePlant(trx, principal, id, body, now),
      },
    );
  },
};

const EXPLANT_COLUMNS: Column[] = [
  { field: 'label', names: ['Label', 'Explant', 'Culture'], required: true },
  { field: 'plant', names: ['Plant', 'Mother plant'] },
  { field: 'current_count', names: ['Vessels', 'Vessel count', 'Jars'] },
  { field: 'plantlet_count', names: ['Plantlets', 'Plantlet count'] },
  { field: 'initial_stage', names: ['Stage', 'Initial stage'] },
  { field: 'room', names: ['Room'] },
  { field: 'batch_number', names: ['Batch', 'Batch number'] },
  { field: 'external_id', names: ['External ID'] },
  { field: 'notes', names: ['Notes'] },
  { field: 'status', names: ['Status'] },
];

/** A row's Plant: a plant's external id, else its common name or species (one plant only). */
async function plantResolver(db: Db, workspaceId: string) {
  const byExternalId = new Map<string, string>();
  const byName = new Map<string, Set<string>>();
  for (const plant of await listPlantIdentities(db, workspaceId)) {
    if (plant.external_id_key !== null) byExternalId.set(plant.external_id_key, plant.id);
    for (const name of [plant.common_name, plant.species]) {
      if (name === null || name === '') continue;
      const key = name.trim().toLowerCase();
      byName.set(key, new Set([...(byName.get(key) ?? []), plant.id]));
    }
  }
  return (value: string | undefined): string | undefined => {
    if (value === undefined) return undefined;
    const key = value.toLowerCase();
    const byId = byExternalId.get(key);
    if (byId !== undefined) return byId;
    const named = [...(byName.get(key) ?? [])];
    if (named.length === 1) return named[0];
    throw errors.validation(
      named.length === 0
        ? `plant_id: no plant of the lab has the external id or name "${value}"`
        : `plant_id: ${named.length} plants are named "${value}"; name the plant by its external id`,
    );
  };
}

/**
 * Explants: a row is the explant with its External ID, else the one of its Plant
 * with its Label (letter case aside), which it updates; else a new explant, with
 * Vessels as its initial count, in its Stage and Room.
 */
export const explantSheet: SheetKind = {
  scope: 'write:explants',
  columns: async (db, workspaceId) => [
    ...EXPLANT_COLUMNS,
    ...customFieldColumns(await customFieldDefinitions(db, workspaceId, 'explant')),
  ],
  async plan(db, { principal, now, records }, map, rows) {
    const workspaceId = principal.workspaceId;
    const setup = await newExplantSetup(db, workspaceId);
    const room = await roomResolver(db, workspaceId);
    const plant = await plantResolver(db, workspaceId);
    const resolved = rows.map(({ row, cells }) => {
      try {
        return { plantId: plant(text(cells, 'plant')) ?? null, error: null };
      } catch (error) {
        const result = failedRow(row, error, map, { plant_id: 'plant' });
        return { plantId: null, error: new RowFailure(result) };
      }
    });
    const stored = await findExplantIdentities(
      db,
      workspaceId,
      rows.flatMap(({ cells }) => text(cells, 'external_id')?.toLowerCase() ?? []),
      [...new Set(resolved.flatMap((r) => r.plantId ?? []))],
    );
    const byExternalId = new Map(
      stored.flatMap((e) => (e.externalIdKey === null ? [] : [[e.externalIdKey, e.id] as const])),
    );
    const byLabel = new Map<string, string[]>();
    for (const e of stored) {
      if (e.plantId === null) continue;
      const key = `${e.plantId}\n${e.labelKey}`;
      byLabel.set(key, [...(byLabel.get(key) ?? []), e.id]);
    }
    const onceExternal = firstRows('external_id: this External ID');
    const onceLabel = firstRows('label: this Label of this Plant');
    const resolvedOf = new Map(rows.map((sheetRow, i) => [sheetRow.row, resolved[i]!]));
    const failed = (row: number, error: unknown) =>
      failedRow(row, error, map, {
        room_id: 'room',
        plant_id: 'plant',
        initial_count: 'current_count',
      });
    return planRows<Static<typeof CreateExplantBody>, Static<typeof UpdateExplantBody>>(
      rows,
      async ({ row, cells }) => {
        const { plantId, error } = resolvedOf.get(row)!;
        if (error !== null) throw error;
        const label = text(cells, 'label');
        const externalId = text(cells, 'external_id');
        const labelKey =
          plantId === null || label === undefined ? null : `${plantId}\n${label.toLowerCase()}`;
        onceExternal(externalId?.toLowerCase() ?? null, row);
        if (externalId === undefined) onceLabel(labelKey, row);
        const status = cells.get('status');
        const vessels = cells.get('current_count');
        const plantlets = cells.get('plantlet_count');
        const fields = defined({
          batch_number: text(cells, 'batch_number'),
          notes: text(cells, 'notes'),
          status: status == null ? undefined : choiceOf(status, EXPLANT_STATUSES),
          external_id: externalId,
          plantlet_count: plantlets == null ? undefined : countOf(plantlets),
          custom_fields: customFieldsOfCells(cells, setup.definitions),
        });
        const byLabelIds = labelKey === null ? [] : (byLabel.get(labelKey) ?? []);
        if (externalId === undefined && byLabelIds.length > 1) {
          throw errors.validation(
            `label: ${byLabelIds.length} explants of this plant are labelled "${label}"; give the row its External ID`,
          );
        }
        const id =
          externalId === undefined ? byLabelIds[0] : byExternalId.get(externalId.toLowerCase());
        if (id !== undefined) {
          const body = checkBody(
            UpdateExplantBody,
            defined({ ...fields, current_count: vessels == null ? undefined : countOf(vessels) }),
          );
          return {
            update: { id, body, changed: await checkExplantUpdate(db, principal, id, body) },
          };
        }
        const body = checkBody(
          CreateExplantBody,
          defined({
            ...fields,
            label,
            plant_id: plantId ?? undefined,
            initial_count: vessels == null ? undefined : countOf(vessels),
            initial_stage: text(cells, 'initial_stage'),
            room_id: room(text(cells, 'room')),
          }),
        );
        checkNewExplant(setup, body);
        return { create: body };
      },
      (row, error) => (error instanceof RowFailure ? error.result : failed(row, error)),
      {
        create: (trx, bodies) => createExplants(trx, principal, setup, bodies, now, records),
        update: (trx, id, body) => updateExplant(trx, principal, id, body, now),
      },
    );
  },
};

const RoomRow = Type.Object({ name: RoomName() }, { additionalProperties: false });

/** Rooms: a row whose Name a room of the lab has is that room (nothing to change); others are new. */
export const roomSheet: SheetKind = {
  scope: 'write:workspace',
  columns: () =>
    Promise.resolve([{ field: 'name', names: ['Name', 'Room', 'Room name'], required: true }]),
  async plan(db, { principal, now }, map, rows) {
    const workspaceId = principal.workspaceId;
    const stored = new Map(
      (await listAllRooms(db, workspaceId)).map((room) => [room.name, room.id]),
    );
    const once = firstRows('name: this Name');
    const results: RowResult[] = [];
    const creates: { result: RowResult; name: string }[] = [];
    for (const { row, cells } of rows) {
      try {
        const { name } = checkBody(RoomRow, defined({ name: text(cells, 'name') }));
        once(name, row);
        const id = stored.get(name);
        if (id !== undefined) {
          results.push({ row, status: 'unchanged', id, column: null, error: null });
          continue;
        }
        const result: RowResult = { row, status: 'created', id: null, column: null, error: null };
        creates.push({ result, name });
        results.push(result);
      } catch (error) {
        results.push(failedRow(row, error, map));
      }
    }
    return {
      results,
      async apply(trx) {
        for (const create of creates) {
          const room = await createRoom(trx, workspaceId, { id: newId(), name: create.name }, now);
          create.result.id = room.id;
        }
      },
    };
  },
};

export const SHEET_KINDS = {
  plants: plantSheet,
  explants: explantSheet,
  rooms: roomSheet,
} as const;
export type SheetKindName = keyof typeof SHEET_KINDS;
