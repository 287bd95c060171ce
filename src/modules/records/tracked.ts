import type { Db, Trx } from '../../db/database.js';
import { changedValues, diffFields, type FieldChanges } from '../../lib/changes.js';
import { errors } from '../../kernel/errors.js';
import type { Page } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import { recordChangeEvent, recordChangeEvents, type EntityType } from '../events/index.js';
import { indexForSearch, type SearchDocument } from '../search/index.js';
import { type CustomFieldEntity } from '../lab/index.js';
import { customFieldsChange, type CustomFieldValue } from './custom-fields.js';
import type { ExternalIds } from './external-ids.js';
import { requireMayChange, type OwnershipRefusal } from './ownership.js';

/**
 * Records with external ids, custom fields and change history (plants,
 * explants): the columns they share, and their reads and updates.
 */
export const TRACKED_COLUMNS = [
  'external_id',
  'external_id_key',
  'custom_fields',
  'created_by',
  'created_at',
  'updated_at',
  'deleted_at',
  'current_stage_id',
  'current_stage',
  'current_stage_name',
  'current_stage_entered_on',
  'current_room_id',
  'archived_at',
  'archived_by',
  'search_text',
] as const;

/** What a PATCH does: the changed fields (from → to, for history) and the columns to write. */
export interface UpdatePlan<Row> {
  changes: FieldChanges;
  update: Partial<Row>;
}

/** The columns every record with external ids and custom fields has. */
export interface TrackedRow {
  id: string;
  created_by: string | null;
  custom_fields: string;
  external_id: string | null;
  external_id_key: string | null;
  updated_at: string;
  archived_at: string | null;
  archived_by: string | null;
  search_text: string | null;
}

/**
 * Plans a partial update: sent fields that differ replace (null clears), an
 * external id is claimed anew when it changes, custom fields merge per key after
 * the lab's checks. Writes nothing; throws 409/422 before anything is written.
 */
export async function planUpdate<Row extends TrackedRow, K extends keyof Row & string>(
  db: Db,
  input: {
    workspaceId: string;
    entity: CustomFieldEntity;
    row: Row;
    fields: readonly K[];
    values: Partial<Record<K | 'custom_fields', unknown>>;
    externalIds: ExternalIds;
  },
): Promise<UpdatePlan<Row>> {
  const { workspaceId, row, values } = input;
  const changes = diffFields(row, values, input.fields);
  const update = changedValues(changes) as Partial<Row>;
  if ('external_id' in changes) {
    update.external_id_key = await input.externalIds.claim(
      db,
      workspaceId,
      (values as { external_id?: string | null }).external_id ?? null,
      row.id,
    );
  }
  const fieldsChange = await customFieldsChange(
    db,
    workspaceId,
    input.entity,
    row.custom_fields,
    values.custom_fields as Record<string, CustomFieldValue> | null | undefined,
  );
  if (fieldsChange !== null) {
    changes.custom_fields = fieldsChange;
    update.custom_fields = JSON.stringify(fieldsChange.to);
  }
  return { changes, update };
}

/**
 * The `created` events of many new records of one kind (an import), each with the
 * record as created and its first stage, as POST /plants and /explants record one.
 */
export async function recordCreatedMany(
  trx: Trx,
  base: { workspaceId: string; entity: EntityType; by: string | null; at: string },
  created: readonly { record: { id: string }; stage: { id: string; stage: string } | null }[],
): Promise<void> {
  await recordChangeEvents(
    trx,
    created.map(({ record, stage }) => ({
      workspaceId: base.workspaceId,
      entityType: base.entity,
      entityId: record.id,
      stageId: stage?.id ?? null,
      eventType: 'created',
      eventTime: base.at,
      recordedBy: base.by,
      payload: { ...record, initial_stage: stage?.stage ?? null },
    })),
  );
}

/** Records an `updated` change-history event listing the changed fields. */
export async function recordUpdated(
  trx: Trx,
  event: { workspaceId: string; entity: EntityType; id: string; by: string | null; at: string },
  changes: FieldChanges,
): Promise<void> {
  await recordChangeEvent(trx, {
    workspaceId: event.workspaceId,
    entityType: event.entity,
    entityId: event.id,
    eventType: 'updated',
    eventTime: event.at,
    recordedBy: event.by,
    payload: { changes },
  });
}

/**
 * A record kind with external ids, custom fields and change history (plants,
 * explants). `C` is what presenting a record needs of its workspace beyond the row
 * (an explant's due date needs the lab's subculture interval), read once per request.
 */
export interface TrackedKind<Row extends TrackedRow, K extends keyof Row & string, Out, C = null> {
  readonly entity: EntityType & CustomFieldEntity;
  readonly noun: string;
  readonly table: {
    find(db: Db, workspaceId: string, id: string): Promise<Row | undefined>;
    lock(trx: Trx, workspaceId: string, id: string): Promise<Row | undefined>;
    findMany(db: Db, workspaceId: string, ids: readonly string[]): Promise<Row[]>;
    insert(trx: Trx, row: Row): Promise<void>;
    update(trx: Trx, workspaceId: string, id: string, changes: Partial<Row>): Promise<void>;
  };
  readonly externalIds: ExternalIds;
  readonly editRefusal: OwnershipRefusal;
  readonly updatable: readonly K[];
  /** Columns that follow changed fields (e.g. lower-cased lookup keys). */
  readonly derive?: (update: Partial<Row>, row: Row) => void;
  /** The names a search matches (`search_text`), from the record's fields. */
  readonly searchText: (row: Row) => string;
  /** What GET /search finds of the record, written with each change. */
  readonly searchDocument: (row: Row) => SearchDocument;
  readonly context: (db: Db, workspaceId: string) => Promise<C>;
  readonly present: (row: Row, context: C) => Out;
}

/** Who may change the record, then what the PATCH would change (`planUpdate`). */
function planTrackedUpdate<Row extends TrackedRow, K extends keyof Row & string, Out, C>(
  db: Db,
  kind: TrackedKind<Row, K, Out, C>,
  principal: Principal,
  row: Row,
  values: Partial<Record<K | 'custom_fields', unknown>>,
): Promise<UpdatePlan<Row>> {
  requireMayChange(principal, kind.noun, row.created_by, kind.editRefusal);
  return planUpdate(db, {
    workspaceId: principal.workspaceId,
    entity: kind.entity,
    row,
    fields: kind.updatable,
    values,
    externalIds: kind.externalIds,
  });
}

/**
 * Whether a PATCH would change the record, checked as `updateTracked` checks it
 * (the same refusals) without writing anything: an import's dry run.
 */
export async function checkTrackedUpdate<
  Row extends TrackedRow,
  K extends keyof Row & string,
  Out,
  C,
>(
  db: Db,
  kind: TrackedKind<Row, K, Out, C>,
  principal: Principal,
  id: string,
  values: Partial<Record<K | 'custom_fields', unknown>>,
): Promise<boolean> {
  const row = await kind.table.find(db, principal.workspaceId, id);
  if (row === undefined) throw notFound(kind);
  const { changes } = await planTrackedUpdate(db, kind, principal, row, values);
  return Object.keys(changes).length > 0;
}

/**
 * PATCH of a tracked record: the record is locked, only its creator or a manager
 * and above may change it, every check runs before the one write, and an
 * `updated` event lists the changes. Nothing changed: nothing written.
 */
export async function updateTracked<Row extends TrackedRow, K extends keyof Row & string, Out, C>(
  trx: Trx,
  kind: TrackedKind<Row, K, Out, C>,
  principal: Principal,
  id: string,
  values: Partial<Record<K | 'custom_fields', unknown>>,
  now: string,
): Promise<Out> {
  const workspaceId = principal.workspaceId;
  const row = await kind.table.lock(trx, workspaceId, id);
  if (row === undefined) throw notFound(kind);
  const { changes, update } = await planTrackedUpdate(trx, kind, principal, row, values);
  const context = await kind.context(trx, workspaceId);
  if (Object.keys(changes).length === 0) return kind.present(row, context);
  kind.derive?.(update, row);
  const searchText = kind.searchText({ ...row, ...update });
  if (searchText !== row.search_text) update.search_text = searchText;
  update.updated_at = now;
  const externalId = (values as { external_id?: string | null }).external_id ?? null;
  await kind.externalIds.guard(kind.table.update(trx, workspaceId, id, update), externalId);
  await indexForSearch(trx, kind.searchDocument({ ...row, ...update }));
  await recordUpdated(
    trx,
    { workspaceId, entity: kind.entity, id, by: principal.memberId, at: now },
    changes,
  );
  return kind.present({ ...row, ...update }, context);
}

const notFound = (kind: { noun: string }) =>
  errors.notFound(kind.noun[0]!.toUpperCase() + kind.noun.slice(1));

export async function getTracked<Row extends TrackedRow, K extends keyof Row & string, Out, C>(
  db: Db,
  kind: TrackedKind<Row, K, Out, C>,
  workspaceId: string,
  id: string,
): Promise<Out> {
  const row = await kind.table.find(db, workspaceId, id);
  if (row === undefined) throw notFound(kind);
  return kind.present(row, await kind.context(db, workspaceId));
}

/** `getTracked` of several ids in one query: the records found, by id (a missing id is absent). */
export async function getTrackedMany<Row extends TrackedRow, K extends keyof Row & string, Out, C>(
  db: Db,
  kind: TrackedKind<Row, K, Out, C>,
  workspaceId: string,
  ids: readonly string[],
): Promise<Map<string, Out>> {
  const rows = await kind.table.findMany(db, workspaceId, ids);
  const context = rows.length === 0 ? null : await kind.context(db, workspaceId);
  return new Map(rows.map((row) => [row.id, kind.present(row, context as C)]));
}

/**
 * A list newest first (`rows` runs the filtered query); or, with `byExternalId`
 * (the lookup of an `externalId` query, lower-cased), the 0 or 1 record it
 * finds, archived ones too, on a single page.
 */
export async function listTracked<Row extends TrackedRow, K extends keyof Row & string, Out, C>(
  db: Db,
  kind: TrackedKind<Row, K, Out, C>,
  workspaceId: string,
  rows: () => Promise<Page<Row>>,
  byExternalId: (() => Promise<Row | undefined>) | null,
): Promise<Page<Out>> {
  const context = await kind.context(db, workspaceId);
  if (byExternalId !== null) {
    const row = await byExternalId();
    return { items: row === undefined ? [] : [kind.present(row, context)], nextKey: null };
  }
  const { items, nextKey } = await rows();
  return { items: items.map((row) => kind.present(row, context)), nextKey };
}
