// Seeds the bench database: schema and identity through Vitro's built services, then
// 100,000 plants in one workspace inserted directly in one transaction; for the transfer
// cases 1,000 explants with 100 transfers each in the same transaction; for the readings
// cases, devices and their readings (bench/readings.mjs).
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { openDatabase } from '../dist/db/database.js';
import { migrateToLatest } from '../dist/db/migrate.js';
import { inTransaction } from '../dist/db/transaction.js';
import { SCOPES } from '../dist/kernel/access.js';
import { addMember, createApiKey, createWorkspace } from '../dist/modules/identity/index.js';
import { drainLab } from '../dist/modules/insights/index.js';
import { saveRoom } from '../dist/modules/lab/index.js';
import { sql } from 'kysely';
import { FIELDS, valuesOf } from './baseline-sql.mjs';
import { seedReadings } from './readings.mjs';
import { SEEDED_VESSELS_BELOW } from './cases.mjs';

const SPECIES = [
  ['Ficus lyrata', 'Fiddle-leaf fig', 'Ficus', 'Moraceae'],
  ['Monstera deliciosa', 'Swiss cheese plant', 'Monstera', 'Araceae'],
  ['Philodendron hederaceum', null, 'Philodendron', 'Araceae'],
  ['Anthurium andraeanum', 'Flamingo flower', 'Anthurium', 'Araceae'],
  ['Alocasia amazonica', null, 'Alocasia', 'Araceae'],
  ['Phalaenopsis amabilis', 'Moth orchid', 'Phalaenopsis', 'Orchidaceae'],
  ['Musa acuminata', 'Banana', 'Musa', 'Musaceae'],
  ['Solanum tuberosum', 'Potato', 'Solanum', 'Solanaceae'],
  ['Vaccinium corymbosum', 'Highbush blueberry', 'Vaccinium', 'Ericaceae'],
  ['Nepenthes alata', null, 'Nepenthes', 'Nepenthaceae'],
];
/** The seeded plants' current stages and rooms, in turn (no stage rows: the lists read the plant). */
const STAGES = [
  ['mother_block', 'Mother Block'],
  ['propagation', 'Propagation'],
  ['production', 'Production'],
  ['greenhouse', 'Greenhouse'],
  ['quarantine', 'Quarantine'],
];
export const ROOM_NAMES = ['Growth room A', 'Growth room B', 'Growth room C', 'Greenhouse 1'];

/** Vitro's search text: the names a search matches, lower-cased, one per line. */
const searchText = (values) =>
  values
    .filter((v) => v !== null && v !== '')
    .join('\n')
    .toLowerCase();

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const PG_BATCH = 1000;
const EXPLANTS = 1000;
const TRANSFERS_PER_EXPLANT = 100;

/** The i-th of `count` plants, one a minute, the last one a minute ago. */
function plantRow(i, count, workspaceId, memberId, nowMs, roomIds) {
  const [species, commonName, genus, family] = SPECIES[i % SPECIES.length];
  const createdMs = nowMs - (count - i) * MINUTE_MS;
  const createdAt = new Date(createdMs).toISOString();
  const externalId = `PL-${String(i).padStart(6, '0')}`;
  return {
    id: uuidv7({ msecs: createdMs }),
    workspace_id: workspaceId,
    species,
    common_name: commonName,
    genus,
    family,
    cultivar: null,
    source: i % 3 === 0 ? 'Tissue culture' : null,
    notes: null,
    status: i % 10 === 0 ? 'in_culture' : 'active',
    external_id: externalId,
    external_id_key: externalId.toLowerCase(),
    custom_fields: '{}',
    created_by: memberId,
    created_at: createdAt,
    updated_at: createdAt,
    deleted_at: null,
    current_stage_id: uuidv7({ msecs: createdMs }),
    current_stage: STAGES[i % STAGES.length][0],
    current_stage_name: STAGES[i % STAGES.length][1],
    current_stage_entered_on: createdAt,
    current_room_id: roomIds[i % roomIds.length],
    archived_at: null,
    archived_by: null,
    search_text: searchText([species, commonName, genus, family, null, externalId]),
  };
}

function plantRows(count, workspaceId, memberId, roomIds) {
  const nowMs = Date.now();
  return Array.from({ length: count }, (_, i) =>
    plantRow(i, count, workspaceId, memberId, nowMs, roomIds),
  );
}

/** The i-th of `count` explants, one every 10 minutes, each from one of the plants. */
function explantRow(i, count, plants, memberId, nowMs) {
  const createdMs = nowMs - TRANSFERS_PER_EXPLANT * 7 * DAY_MS - (count - i) * 10 * MINUTE_MS;
  const createdAt = new Date(createdMs).toISOString();
  const label = `EX-${String(i).padStart(5, '0')}`;
  const batch = `B-${String(Math.floor(i / 50)).padStart(3, '0')}`;
  return {
    id: uuidv7({ msecs: createdMs }),
    workspace_id: plants[0].workspace_id,
    plant_id: plants[i % plants.length].id,
    label,
    label_key: label.toLowerCase(),
    batch_number: batch,
    batch_number_key: batch.toLowerCase(),
    notes: null,
    status: 'active',
    initial_count: 4,
    current_count: null,
    plantlet_count: null,
    external_id: label,
    external_id_key: label.toLowerCase(),
    custom_fields: '{}',
    created_by: memberId,
    created_at: createdAt,
    updated_at: createdAt,
    deleted_at: null,
    current_stage_id: null,
    current_stage: null,
    current_stage_name: null,
    current_stage_entered_on: null,
    current_room_id: null,
    archived_at: null,
    archived_by: null,
    search_text: searchText([label, batch, label]),
    subcultured_at: createdAt,
  };
}

/**
 * Each explant's transfers, cycle 1 to 100, a week apart from a week after it was made; its
 * current count is the last transfer's vessel count, as the API would have left it.
 */
function explantAndTransferRows(plants, memberId) {
  const nowMs = Date.now();
  const explants = [];
  const transfers = [];
  for (let i = 0; i < EXPLANTS; i++) {
    const explant = explantRow(i, EXPLANTS, plants, memberId, nowMs);
    const madeMs = Date.parse(explant.created_at);
    for (let cycle = 1; cycle <= TRANSFERS_PER_EXPLANT; cycle++) {
      const dateMs = madeMs + cycle * 7 * DAY_MS;
      const date = new Date(dateMs).toISOString();
      const vessels = 4 + ((cycle * 7) % (SEEDED_VESSELS_BELOW - 4));
      transfers.push({
        id: uuidv7({ msecs: dateMs }),
        workspace_id: explant.workspace_id,
        entity_type: 'explant',
        entity_id: explant.id,
        transfer_date: date,
        transfer_cycle: cycle,
        from_location: cycle === 1 ? null : `Shelf ${(cycle - 1) % 6}`,
        to_location: `Shelf ${cycle % 6}`,
        status: 'completed',
        notes: null,
        vessel_count: vessels,
        plantlet_count: null,
        custom_fields: '{}',
        created_by: memberId,
        created_at: date,
      });
      explant.current_count = vessels;
      explant.subcultured_at = date;
    }
    explants.push(explant);
  }
  return { explants, transfers };
}

/** The tables to fill, in foreign-key order: `[table, fields, rows]`. */
function tablesOf(seeded) {
  return [
    ['plants', FIELDS.plant, seeded.plants],
    ['explants', FIELDS.explant, seeded.explants],
    ['transfers', FIELDS.transfer, seeded.transfers],
  ].filter(([, , rows]) => rows.length > 0);
}

const insertSql = (table, fields, rowCount, placeholder) => {
  const columns = fields.map((field) => `"${field}"`).join(', ');
  let n = 0;
  const tuple = () => `(${fields.map(() => placeholder(++n)).join(', ')})`;
  return `insert into "${table}" (${columns}) values ${Array.from({ length: rowCount }, tuple).join(', ')}`;
};

function insertSqliteRows(path, tables) {
  const db = new Database(path);
  db.transaction(() => {
    for (const [table, fields, rows] of tables) {
      const insert = db.prepare(insertSql(table, fields, 1, () => '?'));
      for (const row of rows) insert.run(valuesOf(row, fields));
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

async function insertPgRows(url, tables) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    for (const [table, fields, rows] of tables) {
      for (let start = 0; start < rows.length; start += PG_BATCH) {
        const batch = rows.slice(start, start + PG_BATCH);
        const sql = insertSql(table, fields, batch.length, (n) => `$${n}`);
        await client.query(
          sql,
          batch.flatMap((row) => valuesOf(row, fields)),
        );
      }
    }
    await client.query('commit');
    // What autovacuum would soon do on a live server; without it the planner guesses.
    for (const [table] of tables) await client.query(`analyze ${table}`);
  } finally {
    await client.end();
  }
}

/**
 * The seeded explants' kept insights made, as a running lab has them (its drain keeps
 * them up to date): marked, as the migration marks a lab's, and drained.
 */
async function keepInsights(config, workspaceId) {
  const database = openDatabase(config);
  try {
    await sql`insert into insight_dirty (workspace_id, explant_id)
      select workspace_id, id from explants where workspace_id = ${workspaceId}`.execute(
      database.db,
    );
    await drainLab(database.db, workspaceId);
  } finally {
    await database.close();
  }
}

/** Removes a SQLite database with its WAL and shared-memory files. */
export function removeSqliteFiles(path) {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
}

/**
 * Seeds `target` ({ dialect: 'sqlite', path } or { dialect: 'postgres', url }). SQLite starts
 * from a new file; PostgreSQL gets a new workspace next to whatever the database holds.
 */
export async function seed(target, { plants, readings = 0, transfers = false }) {
  const config =
    target.dialect === 'sqlite'
      ? { dialect: 'sqlite', path: target.path, url: `sqlite:${target.path}` }
      : { dialect: 'postgres', url: target.url };
  if (target.dialect === 'sqlite') removeSqliteFiles(target.path);
  const database = openDatabase(config);
  let workspace, member, key, roomIds, quietKey;
  try {
    await migrateToLatest(database.db);
    ({ workspace, member, key, roomIds, quietKey } = await inTransaction(
      database.db,
      async (trx) => {
        /** A lab with its owner and a key holding every scope. */
        const lab = async (name, keyName) => {
          const workspace = await createWorkspace(trx, { name, plan: 'teams' });
          const member = await addMember(trx, {
            workspaceId: workspace.id,
            name: 'Bench owner',
            role: 'owner',
          });
          const key = await createApiKey(trx, {
            memberId: member.id,
            name: keyName,
            scopes: [...SCOPES],
          });
          return { workspace, member, key };
        };
        const { workspace, member, key } = await lab('Bench lab', 'bench');
        const roomIds = [];
        for (const name of ROOM_NAMES) {
          const id = uuidv7();
          await saveRoom(trx, {
            id,
            workspaceId: workspace.id,
            name,
            createdAt: workspace.created_at,
          });
          roomIds.push(id);
        }
        // A second lab, with no webhook endpoints: where the baseline creates its plants when
        // the run subscribes endpoints (see `baselineElsewhere` in cases.mjs).
        const { key: quietKey } = await lab('Bench lab (baseline writes)', 'bench baseline');
        return { workspace, member, key, roomIds, quietKey };
      },
    ));
  } finally {
    await database.close();
  }

  const rows = plantRows(plants, workspace.id, member.id, roomIds);
  const records = transfers
    ? { plants: rows, ...explantAndTransferRows(rows, member.id) }
    : { plants: rows, explants: [], transfers: [] };
  if (target.dialect === 'sqlite') insertSqliteRows(target.path, tablesOf(records));
  else await insertPgRows(target.url, tablesOf(records));
  if (records.explants.length > 0) await keepInsights(config, workspace.id);
  const listed = records.explants[Math.floor(records.explants.length / 2)];
  return {
    workspaceId: workspace.id,
    memberId: member.id,
    apiKey: key.key,
    quietApiKey: quietKey.key,
    plantId: rows[Math.floor(rows.length / 2)].id,
    roomIds,
    readings:
      readings > 0
        ? await seedReadings(target, { workspaceId: workspace.id, memberId: member.id }, readings)
        : null,
    // The transfer cases: one explant's transfers are listed, the others get new ones.
    explantId: listed?.id ?? null,
    otherExplantIds: records.explants.filter((e) => e !== listed).map((e) => e.id),
  };
}
