import { PostgresAdapter, sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * SQLite: a new search document no longer goes into the FTS5 index inside the
 * transaction that writes it, which cost every create about as much again as the
 * record's own rows (FTS5 writes a new segment of its index at each commit). Its
 * number goes into `search_pending`; the index takes the pending documents in,
 * many at once, before any search reads it and every second besides. A pending
 * document changed or removed needs nothing from the index; one already in it is
 * taken out (and put back) by the triggers as before. PostgreSQL: nothing changes.
 */
/** A document's words into the index (`row`: the trigger's new or old row). */
const indexRow = (row: 'new' | 'old') =>
  sql.raw(`insert into search_fts(rowid, name_text, text, parent_text)
    values (${row}.seq, ${row}.name_text, ${row}.text, ${row}.parent_text);`);

/** The old row's words out of the index (FTS5's delete command takes the words indexed). */
const unindexOld = sql.raw(`insert into search_fts(search_fts, rowid, name_text, text, parent_text)
    values ('delete', old.seq, old.name_text, old.text, old.parent_text);`);

const TRIGGERS = ['inserted', 'deleted', 'updated'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`create table search_pending (seq integer primary key)`.execute(db);
  for (const name of TRIGGERS)
    await sql`drop trigger ${sql.raw(`search_documents_${name}`)}`.execute(db);
  await sql`create trigger search_documents_inserted after insert on search_documents begin
    insert into search_pending(seq) values (new.seq);
  end`.execute(db);
  await sql`create trigger search_documents_deleted after delete on search_documents begin
    insert into search_fts(search_fts, rowid, name_text, text, parent_text)
      select 'delete', old.seq, old.name_text, old.text, old.parent_text
      where not exists (select 1 from search_pending where seq = old.seq);
    delete from search_pending where seq = old.seq;
  end`.execute(db);
  await sql`create trigger search_documents_updated after update of name_text, text, parent_text
    on search_documents when not exists (select 1 from search_pending where seq = old.seq) begin
    ${unindexOld}
    ${indexRow('new')}
  end`.execute(db);
}

/** Back to indexing each document in its own transaction: the waiting ones first. */
export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`insert into search_fts(rowid, name_text, text, parent_text)
    select d.seq, d.name_text, d.text, d.parent_text
    from search_pending p join search_documents d on d.seq = p.seq`.execute(db);
  for (const name of TRIGGERS)
    await sql`drop trigger ${sql.raw(`search_documents_${name}`)}`.execute(db);
  await sql`drop table search_pending`.execute(db);
  const on = 'on search_documents begin';
  await sql`create trigger search_documents_inserted after insert ${sql.raw(on)} ${indexRow('new')} end`.execute(
    db,
  );
  await sql`create trigger search_documents_deleted after delete ${sql.raw(on)} ${unindexOld} end`.execute(
    db,
  );
  await sql`create trigger search_documents_updated after update of name_text, text, parent_text
    ${sql.raw(on)} ${unindexOld} ${indexRow('new')} end`.execute(db);
}
