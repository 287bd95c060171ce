// Seeds the bench database: schema and identity through Vitro's built services, then
// 100,000 plants in one workspace inserted directly in one transaction, and, for the
// readings cases, devices and their readings (bench/readings.mjs).
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { openDatabase } from '../dist/db/database.js';
import { migrateToLatest } from '../dist/db/migrate.js';
import { inTransaction } from '../dist/db/transaction.js';
import { SCOPES } from '../dist/kernel/access.js';
import {
  addMember,
  createApiKey,
  createWorkspace,
} from '../dist/modules/identity/identity.service.js';
import { FIELDS, valuesOf } from './baseline-sql.mjs';
import { seedReadings } from './readings.mjs';

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
const MINUTE_MS = 60_000;
const PG_BATCH = 1000;

/** The i-th of `count` plants, one a minute, the last one a minute ago. */
function plantRow(i, count, workspaceId, memberId, nowMs) {
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
  };
}

function plantRows(count, workspaceId, memberId) {
  const nowMs = Date.now();
  return Array.from({ length: count }, (_, i) => plantRow(i, count, workspaceId, memberId, nowMs));
}

const insertPlantsSql = (rowCount, placeholder) => {
  const columns = FIELDS.plant.map((field) => `"${field}"`).join(', ');
  let n = 0;
  const tuple = () => `(${FIELDS.plant.map(() => placeholder(++n)).join(', ')})`;
  return `insert into "plants" (${columns}) values ${Array.from({ length: rowCount }, tuple).join(', ')}`;
};

function insertSqlitePlants(path, rows) {
  const db = new Database(path);
  const insert = db.prepare(insertPlantsSql(1, () => '?'));
  db.transaction(() => {
    for (const row of rows) insert.run(valuesOf(row, FIELDS.plant));
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

async function insertPgPlants(url, rows) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    for (let start = 0; start < rows.length; start += PG_BATCH) {
      const batch = rows.slice(start, start + PG_BATCH);
      const sql = insertPlantsSql(batch.length, (n) => `$${n}`);
      await client.query(
        sql,
        batch.flatMap((row) => valuesOf(row, FIELDS.plant)),
      );
    }
    await client.query('commit');
    // What autovacuum would soon do on a live server; without it the planner guesses.
    await client.query('analyze plants');
  } finally {
    await client.end();
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
export async function seed(target, { plants, readings = 0 }) {
  const config =
    target.dialect === 'sqlite'
      ? { dialect: 'sqlite', path: target.path, url: `sqlite:${target.path}` }
      : { dialect: 'postgres', url: target.url };
  if (target.dialect === 'sqlite') removeSqliteFiles(target.path);
  const database = openDatabase(config);
  let workspace, member, key;
  try {
    await migrateToLatest(database.db);
    ({ workspace, member, key } = await inTransaction(database.db, async (trx) => {
      const workspace = await createWorkspace(trx, { name: 'Bench lab', plan: 'teams' });
      const member = await addMember(trx, {
        workspaceId: workspace.id,
        name: 'Bench owner',
        role: 'owner',
      });
      const key = await createApiKey(trx, {
        memberId: member.id,
        name: 'bench',
        scopes: [...SCOPES],
      });
      return { workspace, member, key };
    }));
  } finally {
    await database.close();
  }

  const rows = plantRows(plants, workspace.id, member.id);
  if (target.dialect === 'sqlite') insertSqlitePlants(target.path, rows);
  else await insertPgPlants(target.url, rows);
  return {
    workspaceId: workspace.id,
    memberId: member.id,
    apiKey: key.key,
    plantId: rows[Math.floor(rows.length / 2)].id,
    readings:
      readings > 0
        ? await seedReadings(target, { workspaceId: workspace.id, memberId: member.id }, readings)
        : null,
  };
}
