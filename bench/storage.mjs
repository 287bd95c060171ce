// Bytes per stored reading: the readings table with its indexes, and the rollups, per reading.
import Database from 'better-sqlite3';
import pg from 'pg';

/** SQLite: page bytes of each table and index (dbstat), summed per table with its indexes. */
function sqliteFigures(path, rollups) {
  const db = new Database(path, { readonly: true });
  try {
    const bytesOf = (table) => {
      const names = db
        .prepare("select name from sqlite_master where tbl_name = ? and type in ('table', 'index')")
        .pluck()
        .all(table);
      const size = db.prepare('select coalesce(sum(pgsize), 0) from dbstat where name = ?').pluck();
      return names.reduce((sum, name) => sum + size.get(name), 0);
    };
    const count = (table) => db.prepare(`select count(*) from ${table}`).pluck().get();
    return {
      readings: count('sensor_readings'),
      readingBytes: bytesOf('sensor_readings'),
      rollups: rollups ? count('sensor_rollups') : 0,
      rollupBytes: rollups ? bytesOf('sensor_rollups') : 0,
    };
  } finally {
    db.close();
  }
}

/** PostgreSQL: every partition with its indexes and TOAST (pg_total_relation_size). */
async function postgresFigures(url, rollups) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const one = async (text) => Number((await client.query(text)).rows[0].n);
    return {
      readings: await one('select count(*) as n from sensor_readings'),
      // Every partition (or the one table of an older schema), with indexes and TOAST.
      readingBytes: await one(
        "select case when relkind = 'p' then (select sum(pg_total_relation_size(relid)) " +
          "from pg_partition_tree('sensor_readings')) else pg_total_relation_size(oid) end as n " +
          "from pg_class where oid = 'sensor_readings'::regclass",
      ),
      rollups: rollups ? await one('select count(*) as n from sensor_rollups') : 0,
      rollupBytes: rollups ? await one("select pg_total_relation_size('sensor_rollups') as n") : 0,
    };
  } finally {
    await client.end();
  }
}

/** `{readings, readingBytes, rollups, rollupBytes, perReading, rollupsPerReading}` of a bench database. */
export async function storageFigures(target, { rollups = true } = {}) {
  const figures =
    target.dialect === 'sqlite'
      ? sqliteFigures(target.path, rollups)
      : await postgresFigures(target.url, rollups);
  return {
    ...figures,
    perReading: figures.readingBytes / figures.readings,
    rollupsPerReading: figures.rollupBytes / figures.readings,
  };
}

export function describeStorage(dialect, s) {
  const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;
  return (
    `[${dialect}] storage: ${s.readings.toLocaleString('en-US')} readings take ` +
    `${(s.readingBytes / 2 ** 20).toFixed(0)} MB with their indexes, ${kb(s.perReading)} per reading; ` +
    `${s.rollups.toLocaleString('en-US')} rollup rows ${kb(s.rollupsPerReading)} more per reading`
  );
}
