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
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`create table search_pending (seq integer primary key)`.execute(db);
  await sql`drop trigger search_documents_inserted`.execute(db);
  await sql`drop trigger search_documents_deleted`.execute(db);
  await sql`drop trigger search_documents_updated`.execute(db);
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
    insert into search_fts(search_fts, rowid, name_text, text, parent_text)
      values ('delete', old.seq, old.name_text, old.text, old.parent_text);
    insert into search_fts(rowid, name_text, text, parent_text)
      values (new.seq, new.name_text, new.text, new.parent_text);
  end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`insert into search_fts(rowid, name_text, text, parent_text)
    select d.seq, d.name_text, d.text, d.parent_text
    from search_pending p join search_documents d on d.seq = p.seq`.execute(db);
  await sql`drop trigger search_documents_inserted`.execute(db);
  await sql`drop trigger search_documents_deleted`.execute(db);
  await sql`drop trigger search_documents_updated`.execute(db);
  await sql`drop table search_pending`.execute(db);
  await sql`create trigger search_documents_inserted after insert on search_documents begin
    insert into search_fts(rowid, name_text, text, parent_text)
      values (new.seq, new.name_text, new.text, new.parent_text);
  end`.execute(db);
  await sql`create trigger search_documents_deleted after delete on search_documents begin
    insert into search_fts(search_fts, rowid, name_text, text, parent_text)
      values ('delete', old.seq, old.name_text, old.text, old.parent_text);
  end`.execute(db);
  await sql`create trigger search_documents_updated after update of name_text, text, parent_text
    on search_documents begin
    insert into search_fts(search_fts, rowid, name_text, text, parent_text)
      values ('delete', old.seq, old.name_text, old.text, old.parent_text);
    insert into search_fts(rowid, name_text, text, parent_text)
      values (new.seq, new.name_text, new.text, new.parent_text);
  end`.execute(db);
}
