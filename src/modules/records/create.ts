import type { Db, Trx } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import type { Principal } from '../../kernel/principal.js';
import { indexManyNewForSearch, indexNewForSearch } from '../search/index.js';
import { recordOrGather, type EntityType, type NewChangeEvent } from '../events/index.js';
import {
  hasRoom,
  requireRoomIds,
  stageOptions,
  type StageEntity,
  type StageOption,
} from '../lab/index.js';
import { currentStageColumns, type CurrentStageColumns } from './current-stage.js';
import { applyCustomFields, type CustomFieldMap, type CustomFieldValue } from './custom-fields.js';
import { resolveStageKey } from './stage-lists.js';
import { recordCreatedMany, type TrackedKind, type TrackedRow } from './tracked.js';

/** What a create of a plant or an explant sends that both kinds read alike. */
export interface TrackedCreateInput {
  readonly custom_fields?: Record<string, CustomFieldValue> | null;
  readonly room_id?: string;
  readonly external_id?: string | null;
}

/** The columns of a new plant or explant that are the same for both kinds. */
export type NewTrackedColumns = Omit<TrackedRow, 'search_text'> &
  CurrentStageColumns & {
    workspace_id: string;
    created_at: string;
    deleted_at: string | null;
  };

/** The first stage record of a new plant or explant. */
export interface FirstStage {
  workspaceId: string;
  entity: EntityType;
  entityId: string;
  stage: string;
  enteredOn: string;
  createdBy: string | null;
  /** Checked by the caller: a room of the workspace. */
  roomId?: string | null;
}

/** Opens a new record's first stage record (the stages module's `openInitialStage`). */
export type OpenStage = (trx: Trx, input: FirstStage) => Promise<{ id: string; stage: string }>;

/**
 * The stage `asked` names (by key or display name) in `options`, the lab's list of
 * `entity` stages, else 422 naming initial_stage. Nothing asked: what `byDefault`
 * picks from the list; without it, no stage.
 */
export function pickInitialStage(
  options: readonly StageOption[],
  entity: StageEntity,
  asked: string | undefined,
  byDefault?: (options: readonly StageOption[]) => StageOption | null,
): StageOption | null {
  if (asked === undefined) return byDefault === undefined ? null : byDefault(options);
  const key = resolveStageKey(options, asked);
  if (key === null) {
    throw errors.validation(
      `initial_stage: "${asked}" is not in this lab's ${entity} stage list; use one of ${options
        .map((o) => o.name)
        .join(', ')}`,
    );
  }
  return options.find((o) => o.key === key)!;
}

/**
 * `pickInitialStage` from the lab's list, read only when a stage may result (`list`: a
 * caller creating several records reads it once for all).
 */
export async function initialStageOf(
  db: Db,
  workspaceId: string,
  entity: StageEntity,
  asked: string | undefined,
  byDefault?: (options: readonly StageOption[]) => StageOption | null,
  list: () => Promise<readonly StageOption[]> = () => stageOptions(db, workspaceId, entity),
): Promise<StageOption | null> {
  if (asked === undefined && byDefault === undefined) return null;
  return pickInitialStage(await list(), entity, asked, byDefault);
}

/** The columns a new plant or explant has alike: its ids, custom fields, first stage. */
function newTrackedColumns(
  base: { id: string; workspaceId: string; createdBy: string | null; now: string },
  input: TrackedCreateInput,
  customFields: CustomFieldMap,
  externalIdKey: string | null,
  stage: { id: string; stage: string; name: string } | null,
): NewTrackedColumns {
  return {
    id: base.id,
    workspace_id: base.workspaceId,
    external_id: input.external_id ?? null,
    external_id_key: externalIdKey,
    custom_fields: JSON.stringify(customFields),
    created_by: base.createdBy,
    created_at: base.now,
    updated_at: base.now,
    deleted_at: null,
    ...currentStageColumns(
      stage === null ? null : { ...stage, entered_on: base.now, room_id: input.room_id ?? null },
    ),
    archived_at: null,
    archived_by: null,
  };
}

/**
 * Creates a plant or explant as the principal's member, in the caller's transaction:
 * its custom fields checked against the lab's definitions, then its first stage
 * (`firstStage`; none is possible) and the room sent with it, its external id
 * claimed, the row (`row` adds the kind's own columns) inserted with its current stage
 * and search text, and a `created` event: the record and the key of its first stage.
 * Every check runs before the first write.
 */
export async function createTracked<
  Row extends TrackedRow,
  K extends keyof Row & string,
  Out extends object,
  C,
>(
  trx: Trx,
  kind: TrackedKind<Row, K, Out, C>,
  principal: Principal,
  input: TrackedCreateInput,
  now: string,
  build: {
    firstStage: () => Promise<StageOption | null>;
    openStage: OpenStage;
    row: (columns: NewTrackedColumns) => Omit<Row, 'search_text'>;
    /** What presenting needs of the workspace, when the caller has read it already. */
    context?: C;
    /** Where the `created` event goes when the caller records a larger write's together. */
    events?: NewChangeEvent[];
  },
): Promise<{ record: Out; stage: { id: string; stage: string } | null }> {
  const workspaceId = principal.workspaceId;
  const customFields = await applyCustomFields(
    trx,
    workspaceId,
    kind.entity,
    {},
    input.custom_fields,
  );
  const firstStage = await build.firstStage();
  const roomId = input.room_id ?? null;
  if (roomId !== null && !(await hasRoom(trx, workspaceId, roomId))) {
    throw errors.validation('room_id: no room with this id in the workspace');
  }
  const externalId = input.external_id ?? null;
  const id = newId();
  const stage =
    firstStage === null
      ? null
      : await build.openStage(trx, {
          workspaceId,
          entity: kind.entity,
          entityId: id,
          stage: firstStage.key,
          enteredOn: now,
          createdBy: principal.memberId,
          roomId,
        });
  const fields = build.row(
    newTrackedColumns(
      { id, workspaceId, createdBy: principal.memberId, now },
      input,
      customFields,
      await kind.externalIds.claim(trx, workspaceId, externalId, null),
      stage === null ? null : { id: stage.id, stage: stage.stage, name: firstStage!.name },
    ),
  );
  const row = { ...fields, search_text: kind.searchText(fields as Row) } as Row;
  await kind.externalIds.guard(kind.table.insert(trx, row), externalId);
  await indexNewForSearch(trx, kind.searchDocument(row));
  const context =
    build.context === undefined ? await kind.context(trx, workspaceId) : build.context;
  const record = kind.present(row, context);
  await recordOrGather(
    trx,
    [
      {
        workspaceId,
        entityType: kind.entity,
        entityId: id,
        stageId: stage?.id ?? null,
        eventType: 'created',
        eventTime: now,
        recordedBy: principal.memberId,
        payload: { ...record, initial_stage: stage?.stage ?? null },
      },
    ],
    build.events,
  );
  return { record, stage };
}

/** Opens the first stages of many new records of one kind (the stages module's `openFirstStages`). */
export type OpenStages = (
  trx: Trx,
  base: { workspaceId: string; entity: EntityType; enteredOn: string; createdBy: string | null },
  records: readonly { entityId: string; stage: StageOption | null; roomId: string | null }[],
) => Promise<Map<string, { id: string; stage: string; name: string }>>;

/**
 * Creates many plants or explants at once (an import), each already checked as
 * `createTracked` checks one (`checked`: its custom fields and first stage): rooms of
 * the workspace and external ids free and distinct are checked before the first
 * write; then rows, first stages, search documents and `created` events are written
 * in a few statements (`insert` writes the rows).
 */
export async function createTrackedMany<
  Row extends TrackedRow,
  K extends keyof Row & string,
  Out extends { id: string },
  C,
  I extends TrackedCreateInput,
>(
  trx: Trx,
  kind: TrackedKind<Row, K, Out, C>,
  principal: Principal,
  inputs: readonly I[],
  now: string,
  build: {
    checked: readonly { customFields: CustomFieldMap; stage: StageOption | null }[];
    openStages: OpenStages;
    row: (columns: NewTrackedColumns, input: I) => Omit<Row, 'search_text'>;
    insert: (trx: Trx, rows: readonly Row[]) => Promise<void>;
  },
): Promise<Out[]> {
  const workspaceId = principal.workspaceId;
  const by = principal.memberId;
  await requireRoomIds(
    trx,
    workspaceId,
    inputs.flatMap((input) => input.room_id ?? []),
  );
  const keys = await kind.externalIds.claimMany(
    trx,
    workspaceId,
    inputs.map((input) => input.external_id ?? null),
  );
  const ids = inputs.map(() => newId());
  const stages = await build.openStages(
    trx,
    { workspaceId, entity: kind.entity, enteredOn: now, createdBy: by },
    inputs.map((input, i) => ({
      entityId: ids[i]!,
      stage: build.checked[i]!.stage,
      roomId: input.room_id ?? null,
    })),
  );
  const rows = inputs.map((input, i) => {
    const fields = build.row(
      newTrackedColumns(
        { id: ids[i]!, workspaceId, createdBy: by, now },
        input,
        build.checked[i]!.customFields,
        keys[i]!,
        stages.get(ids[i]!) ?? null,
      ),
      input,
    );
    return { ...fields, search_text: kind.searchText(fields as Row) } as Row;
  });
  await kind.externalIds.guard(build.insert(trx, rows), null);
  await indexManyNewForSearch(trx, workspaceId, rows.map(kind.searchDocument));
  const context = await kind.context(trx, workspaceId);
  const created = rows.map((row) => kind.present(row, context));
  await recordCreatedMany(
    trx,
    { workspaceId, entity: kind.entity, by, at: now },
    created.map((record) => ({ record, stage: stages.get(record.id) ?? null })),
  );
  return created;
}
