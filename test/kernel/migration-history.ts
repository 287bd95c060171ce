import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- old schemas are typed Kysely<any>, as migrations are */

/**
 * Every distinct set of migrations a commit of main has had (`git rev-list
 * --first-parent main`, then `git ls-tree` of `src/db/migrations/`), frozen as data:
 * a lab that installed Vitro at that commit has exactly this schema. The migration
 * files themselves never changed once on main. A release added after these is a
 * prefix of `migrations/index.ts` (its landing order), which the test also builds.
 */
export const RELEASES: readonly { commit: string; migrations: readonly string[] }[] = [
  {
    commit: '1750776', // server skeleton
    migrations: ['20261121090000_identity', '20261121090100_records', '20261121090200_library'],
  },
  {
    commit: 'fc3c657', // transfers and contaminations
    migrations: [
      '20261121090000_identity',
      '20261121090100_records',
      '20261121090200_library',
      '20261123100000_transfers',
    ],
  },
  {
    commit: '8f94ebb', // media recipes and label scans
    migrations: [
      '20261121090000_identity',
      '20261121090100_records',
      '20261121090200_library',
      '20261123100000_transfers',
      '20261123110000_recipes_and_scans',
    ],
  },
  {
    commit: 'a9ee5a4', // tasks
    migrations: [
      '20261121090000_identity',
      '20261121090100_records',
      '20261121090200_library',
      '20261123100000_transfers',
      '20261123110000_recipes_and_scans',
      '20261123150000_tasks',
    ],
  },
  {
    commit: '9478945', // SOP runs: the first to land before one already released
    migrations: [
      '20261121090000_identity',
      '20261121090100_records',
      '20261121090200_library',
      '20261123100000_transfers',
      '20261123110000_recipes_and_scans',
      '20261123120000_sop_runs',
      '20261123150000_tasks',
    ],
  },
  {
    commit: 'a57f83b', // equipment and commerce
    migrations: [
      '20261121090000_identity',
      '20261121090100_records',
      '20261121090200_library',
      '20261123100000_transfers',
      '20261123110000_recipes_and_scans',
      '20261123120000_sop_runs',
      '20261123140000_equipment_commerce',
      '20261123150000_tasks',
    ],
  },
  {
    commit: 'd4d673d', // assets
    migrations: [
      '20261121090000_identity',
      '20261121090100_records',
      '20261121090200_library',
      '20261123100000_transfers',
      '20261123110000_recipes_and_scans',
      '20261123120000_sop_runs',
      '20261123140000_equipment_commerce',
      '20261123150000_tasks',
      '20261123160000_assets',
    ],
  },
  {
    commit: 'd550bd2', // comments
    migrations: [
      '20261121090000_identity',
      '20261121090100_records',
      '20261121090200_library',
      '20261123100000_transfers',
      '20261123110000_recipes_and_scans',
      '20261123120000_sop_runs',
      '20261123140000_equipment_commerce',
      '20261123150000_tasks',
      '20261123160000_assets',
      '20261123170000_comments',
    ],
  },
  {
    commit: '50d9b8b', // devices: the merge whose upgrade failed
    migrations: [
      '20261121090000_identity',
      '20261121090100_records',
      '20261121090200_library',
      '20261123100000_transfers',
      '20261123110000_recipes_and_scans',
      '20261123120000_sop_runs',
      '20261123130000_device_data',
      '20261123140000_equipment_commerce',
      '20261123150000_tasks',
      '20261123160000_assets',
      '20261123170000_comments',
    ],
  },
];

/** The ids of the seeded records (fixed, so that a failure names them). */
export const SEEDED = {
  workspace: '019ab000-0000-7000-8000-000000000001',
  member: '019ab000-0000-7000-8000-000000000002',
  room: '019ab000-0000-7000-8000-000000000003',
  device: '019ab000-0000-7000-8000-000000000004',
  plant: '019ab000-0000-7000-8000-000000000005',
  explant: '019ab000-0000-7000-8000-000000000006',
  sop: '019ab000-0000-7000-8000-000000000007',
  sopVersion: '019ab000-0000-7000-8000-000000000008',
  equipment: '019ab000-0000-7000-8000-000000000009',
  orderLine: '019ab000-0000-7000-8000-00000000000a',
  transfer: '019ab000-0000-7000-8000-00000000000b',
  recipe: '019ab000-0000-7000-8000-00000000000c',
  run: '019ab000-0000-7000-8000-00000000000d',
  deviceEvent: '019ab000-0000-7000-8000-00000000000e',
  reading: '019ab000-0000-7000-8000-00000000000f',
  equipmentEvent: '019ab000-0000-7000-8000-000000000010',
  task: '019ab000-0000-7000-8000-000000000011',
  asset: '019ab000-0000-7000-8000-000000000012',
  comment: '019ab000-0000-7000-8000-000000000013',
} as const;

const AT = '2026-11-22T10:00:00.000Z';
const ws = SEEDED.workspace;

export interface SeedRow {
  readonly table: string;
  /** The column that finds the row again (its id). */
  readonly key: string;
  readonly row: Readonly<Record<string, string | number | null>>;
}

/**
 * Rows a lab wrote into the tables each migration created, in that migration's own
 * columns (frozen with it): what an earlier release held before its upgrade.
 */
export const SEEDS: Readonly<Record<string, readonly SeedRow[]>> = {
  '20261121090000_identity': [
    {
      table: 'workspaces',
      key: 'id',
      row: {
        id: ws,
        name: 'Lab of last week',
        type: 'lab',
        plan: 'teams',
        features: null,
        device_allowance: null,
        event_seq: 0,
        last_event_at: null,
        created_at: AT,
        updated_at: AT,
      },
    },
    {
      table: 'members',
      key: 'id',
      row: {
        id: SEEDED.member,
        workspace_id: ws,
        name: 'Owner',
        email: null,
        role: 'owner',
        status: 'active',
        created_at: AT,
        updated_at: AT,
      },
    },
    {
      table: 'rooms',
      key: 'id',
      row: { id: SEEDED.room, workspace_id: ws, name: 'Growth room', created_at: AT },
    },
    {
      table: 'devices',
      key: 'id',
      row: {
        id: SEEDED.device,
        workspace_id: ws,
        name: 'Sensor 1',
        type: 'sensor',
        status: 'active',
        room_id: SEEDED.room,
        metadata: '{}',
        created_by: SEEDED.member,
        created_at: AT,
        updated_at: AT,
      },
    },
  ],
  '20261121090100_records': [
    {
      table: 'plants',
      key: 'id',
      row: {
        id: SEEDED.plant,
        workspace_id: ws,
        species: 'Ficus lyrata',
        status: 'active',
        custom_fields: '{}',
        created_by: SEEDED.member,
        created_at: AT,
        updated_at: AT,
      },
    },
    {
      table: 'explants',
      key: 'id',
      row: {
        id: SEEDED.explant,
        workspace_id: ws,
        plant_id: SEEDED.plant,
        label: 'FL-1',
        label_key: 'fl-1',
        status: 'active',
        initial_count: 4,
        current_count: 4,
        custom_fields: '{}',
        created_by: SEEDED.member,
        created_at: AT,
        updated_at: AT,
      },
    },
  ],
  '20261121090200_library': [
    {
      table: 'sops',
      key: 'id',
      row: {
        id: SEEDED.sop,
        workspace_id: ws,
        title: 'Subculture',
        tags: '[]',
        equipment: '[]',
        created_at: AT,
        updated_at: AT,
      },
    },
    {
      table: 'sop_versions',
      key: 'id',
      row: {
        id: SEEDED.sopVersion,
        workspace_id: ws,
        sop_id: SEEDED.sop,
        version: 1,
        lifecycle_status: 'effective',
        steps: '[]',
        created_at: AT,
      },
    },
    {
      table: 'equipment',
      key: 'id',
      row: {
        id: SEEDED.equipment,
        workspace_id: ws,
        name: 'Balance',
        category: 'balance_scale',
        status: 'active',
        created_at: AT,
        updated_at: AT,
      },
    },
    {
      table: 'order_lines',
      key: 'id',
      row: {
        id: SEEDED.orderLine,
        workspace_id: ws,
        plant_id: SEEDED.plant,
        quantity: 3,
        unit_amount: '18.50',
        unit_currency: 'USD',
        occurred_at: '2026-11-02T10:00:00.000Z',
        created_at: AT,
      },
    },
  ],
  '20261123100000_transfers': [
    {
      table: 'transfers',
      key: 'id',
      row: {
        id: SEEDED.transfer,
        workspace_id: ws,
        entity_type: 'explant',
        entity_id: SEEDED.explant,
        transfer_date: AT,
        transfer_cycle: 1,
        status: 'completed',
        custom_fields: '{}',
        created_at: AT,
      },
    },
  ],
  '20261123110000_recipes_and_scans': [
    {
      table: 'media_recipes',
      key: 'id',
      row: {
        id: SEEDED.recipe,
        workspace_id: ws,
        title: 'MS + BAP',
        status: 'active',
        origin: 'user',
        visibility: 'private',
        is_public: 0,
        components: '[]',
        version: 1,
        created_by: SEEDED.member,
        created_at: AT,
        updated_at: AT,
      },
    },
  ],
  '20261123120000_sop_runs': [
    {
      table: 'sop_runs',
      key: 'id',
      row: {
        id: SEEDED.run,
        workspace_id: ws,
        sop_id: SEEDED.sop,
        sop_version_id: SEEDED.sopVersion,
        version: 1,
        step_ids: '[]',
        status: 'in_progress',
        started_at: AT,
        event_seq: 0,
        created_at: AT,
        updated_at: AT,
      },
    },
  ],
  '20261123130000_device_data': [
    {
      table: 'device_events',
      key: 'id',
      row: {
        id: SEEDED.deviceEvent,
        workspace_id: ws,
        device_id: SEEDED.device,
        event_type: 'alert',
        payload: '{}',
        occurred_at: AT,
        created_at: AT,
      },
    },
    {
      table: 'sensor_readings',
      key: 'id',
      row: {
        id: SEEDED.reading,
        device_id: SEEDED.device,
        workspace_id: ws,
        recorded_at: AT,
        type: 'temperature',
        value: 21.5,
        unit: 'C',
        created_at: AT,
      },
    },
  ],
  '20261123140000_equipment_commerce': [
    {
      table: 'equipment_events',
      key: 'id',
      row: {
        id: SEEDED.equipmentEvent,
        workspace_id: ws,
        equipment_id: SEEDED.equipment,
        kind: 'calibration',
        occurred_at: AT,
        outcome: 'pass',
        recorded_by: SEEDED.member,
        recorded_at: AT,
      },
    },
  ],
  '20261123150000_tasks': [
    {
      table: 'tasks',
      key: 'id',
      row: {
        id: SEEDED.task,
        workspace_id: ws,
        title: 'Prepare MS medium',
        category: 'other',
        workflow_status: 'todo',
        priority_source: 'manual',
        undated: 1,
        due_key: '',
        is_all_day: 0,
        created_by: SEEDED.member,
        created_at: AT,
        updated_at: AT,
      },
    },
  ],
  '20261123160000_assets': [
    {
      table: 'assets',
      key: 'id',
      row: {
        id: SEEDED.asset,
        workspace_id: ws,
        target: 'plant',
        target_id: SEEDED.plant,
        kind: 'image',
        file_name: 'roots.png',
        content_type: 'image/png',
        byte_size: 68,
        storage_key: `assets/${SEEDED.asset}`,
        uploaded_by: SEEDED.member,
        created_at: AT,
      },
    },
  ],
  '20261123170000_comments': [
    {
      table: 'comments',
      key: 'id',
      row: {
        id: SEEDED.comment,
        workspace_id: ws,
        entity_type: 'plant',
        entity_id: SEEDED.plant,
        body: 'Browning at the base',
        status: 'active',
        is_pinned: 0,
        author_id: SEEDED.member,
        mentioned_user_ids: '[]',
        entity_references: '[]',
        created_at: AT,
        updated_at: AT,
      },
    },
  ],
};

/** Writes the seed rows of `migrations`, in their order (a row's references come first). */
export async function seed(db: Kysely<any>, migrations: readonly string[]): Promise<SeedRow[]> {
  const rows = migrations.flatMap((name) => SEEDS[name] ?? []);
  for (const { table, row } of rows) await db.insertInto(table).values(row).execute();
  return rows;
}

/** A row as read back, each value as text (bigint, double and integer read alike on both engines). */
export async function readBack(
  db: Kysely<any>,
  seeded: SeedRow,
): Promise<Record<string, string> | null> {
  const found: Record<string, unknown> | undefined = await db
    .selectFrom(seeded.table)
    .select(Object.keys(seeded.row))
    .where(seeded.key, '=', seeded.row[seeded.key])
    .executeTakeFirst();
  return found === undefined ? null : asText(found);
}

export const asText = (row: Readonly<Record<string, unknown>>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(row).map(([k, v]) => [
      k,
      typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' ? String(v) : 'null',
    ]),
  );

/**
 * What a schema is made of, to compare two databases: each table's columns (name,
 * type, nullability, default; in name order, as `ALTER TABLE … ADD COLUMN` order is
 * not the schema's business), its indexes and constraints.
 */
export async function schemaOf(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<unknown> {
  if (dialect === 'sqlite') {
    const tables = (
      await sql<{ name: string; sql: string }>`
        select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(
        db,
      )
    ).rows;
    const shape: Record<string, unknown> = {};
    for (const table of tables) {
      const columns = (
        await sql<
          Record<string, unknown>
        >`select name, type, "notnull", dflt_value, pk from pragma_table_info(${table.name})`.execute(
          db,
        )
      ).rows.sort((a, b) => String(a.name).localeCompare(String(b.name)));
      const foreignKeys = (
        await sql<
          Record<string, unknown>
        >`select "table", "from", "to" from pragma_foreign_key_list(${table.name})`.execute(db)
      ).rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      const indexes = (
        await sql<
          Record<string, unknown>
        >`select name, "unique", origin, partial from pragma_index_list(${table.name})`.execute(db)
      ).rows.sort((a, b) => String(a.name).localeCompare(String(b.name)));
      const indexColumns: Record<string, unknown> = {};
      for (const index of indexes) {
        indexColumns[String(index.name)] = (
          await sql<
            Record<string, unknown>
          >`select name from pragma_index_info(${String(index.name)}) order by seqno`.execute(db)
        ).rows.map((r) => r.name);
      }
      const indexSql = (
        await sql<{ name: string; sql: string | null }>`
          select name, sql from sqlite_master where type = 'index' and tbl_name = ${table.name} order by name`.execute(
          db,
        )
      ).rows;
      shape[table.name] = {
        withoutRowid: /without rowid/i.test(table.sql),
        columns,
        foreignKeys,
        indexes,
        indexColumns,
        indexSql,
      };
    }
    return shape;
  }
  // Partitions (sensor readings' months) are left out: which exist depends on when the
  // database was made and on the months its readings were taken in, not on its schema.
  const notPartition = (table: ReturnType<typeof sql.ref>) =>
    sql`not exists (select 1 from pg_class p join pg_namespace n on n.oid = p.relnamespace
      where p.relname = ${table} and n.nspname = current_schema() and p.relispartition)`;
  const columns = (
    await sql<Record<string, unknown>>`
      select table_name, column_name, data_type, is_nullable, column_default
      from information_schema.columns where table_schema = current_schema()
        and ${notPartition(sql.ref('table_name'))}
      order by table_name, column_name`.execute(db)
  ).rows;
  const indexes = (
    await sql<Record<string, unknown>>`
      select tablename, indexname, indexdef from pg_indexes
      where schemaname = current_schema() and ${notPartition(sql.ref('tablename'))}
      order by tablename, indexname`.execute(db)
  ).rows;
  const constraints = (
    await sql<Record<string, unknown>>`
      select cl.relname as table_name, co.conname, pg_get_constraintdef(co.oid) as definition
      from pg_constraint co
      join pg_class cl on cl.oid = co.conrelid
      join pg_namespace ns on ns.oid = cl.relnamespace
      where ns.nspname = current_schema() and not cl.relispartition
      order by cl.relname, co.conname`.execute(db)
  ).rows;
  return { columns, indexes, constraints };
}
