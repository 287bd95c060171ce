// The SQL text Vitro's repositories compile to (Kysely output, copied), for the baseline.

/** Column order of the inserts (and of the plant select), as Vitro's rows list them. */
export const FIELDS = {
  plant: [
    'id',
    'workspace_id',
    'species',
    'common_name',
    'genus',
    'family',
    'cultivar',
    'source',
    'notes',
    'status',
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
  ],
  stage: [
    'id',
    'workspace_id',
    'entity_type',
    'entity_id',
    'stage',
    'status',
    'entered_on',
    'completed_at',
    'room_id',
    'notes',
    'created_by',
    'created_at',
  ],
  explant: [
    'id',
    'workspace_id',
    'plant_id',
    'label',
    'label_key',
    'batch_number',
    'batch_number_key',
    'notes',
    'status',
    'initial_count',
    'current_count',
    'plantlet_count',
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
    'subcultured_at',
  ],
  transfer: [
    'id',
    'workspace_id',
    'entity_type',
    'entity_id',
    'transfer_date',
    'transfer_cycle',
    'from_location',
    'to_location',
    'status',
    'notes',
    'vessel_count',
    'plantlet_count',
    'custom_fields',
    'created_by',
    'created_at',
  ],
  event: [
    'id',
    'workspace_id',
    'seq',
    'entity_type',
    'entity_id',
    'stage_id',
    'event_type',
    'event_time',
    'recorded_by',
    'payload',
    'created_at',
  ],
};

export const valuesOf = (row, fields) => fields.map((field) => row[field]);

const columns = (fields) => fields.map((field) => `"${field}"`).join(', ');
const insert = (table, fields) =>
  `insert into "${table}" (${columns(fields)}) values (${fields.map(() => '?').join(', ')})`;
const PLANT_COLUMNS = columns(FIELDS.plant);
const OF_RECORD = 'where "workspace_id" = ? and "entity_type" = ? and "entity_id" = ?';

/** The explant counts a transfer applies, as Kysely sets them: only the columns that change. */
export const updateExplantSql = (fields) =>
  `update "explants" set ${fields.map((field) => `"${field}" = ?`).join(', ')} ` +
  'where "workspace_id" = ? and "id" = ?';

/** Written with `?` placeholders; the PostgreSQL store numbers them. */
export const SQL = {
  keyForAuth:
    'select "k"."id", "k"."workspace_id", "k"."member_id", "k"."name", "k"."prefix", "k"."scopes", ' +
    '"k"."environment", "k"."created_at", "k"."last_used_at", "k"."revoked_at", "m"."role", ' +
    '"m"."status" as "member_status", "m"."workspace_id" as "member_workspace_id", "w"."plan", ' +
    '"w"."features" from "api_keys" as "k" inner join "members" as "m" on "m"."id" = "k"."member_id" ' +
    'inner join "workspaces" as "w" on "w"."id" = "k"."workspace_id" where "k"."key_hash" = ?',
  touchKey: 'update "api_keys" set "last_used_at" = ? where "id" = ?',
  findPlant: `select ${PLANT_COLUMNS} from "plants" where "workspace_id" = ? and "id" = ? and "deleted_at" is null`,
  listPlants:
    `select ${PLANT_COLUMNS} from "plants" where "workspace_id" = ? and "deleted_at" is null ` +
    'and "archived_at" is null order by "created_at" desc, "id" desc limit ? offset ?',
  stageOptions:
    'select "workspace_id", "entity_type", "key", "name", "position" from "stage_definitions" ' +
    'where "workspace_id" = ? and "entity_type" = ? order by "position"',
  insertPlant: insert('plants', FIELDS.plant),
  insertStage: insert('stages', FIELDS.stage),
  nextEventSequence:
    'update "workspaces" set "event_seq" = "event_seq" + ? where "id" = ? ' +
    'returning "event_seq", "last_event_at"',
  setLastEventAt: 'update "workspaces" set "last_event_at" = ? where "id" = ?',
  insertEvent: insert('events', FIELDS.event),
  // Transfers. On PostgreSQL the lock adds `for no key update` (baseline-pg.mjs).
  findExplant:
    `select ${columns(FIELDS.explant)} from "explants" ` +
    'where "workspace_id" = ? and "deleted_at" is null and "id" = ?',
  listTransfers:
    `select ${columns(FIELDS.transfer)} from "transfers" ${OF_RECORD} ` +
    'order by "transfer_date" desc, "id" desc limit ? offset ?',
  highestCycle: `select "transfer_cycle" from "transfers" ${OF_RECORD} order by "transfer_cycle" desc limit ?`,
  insertTransfer: insert('transfers', FIELDS.transfer),
};
