import { PostgresAdapter, sql, type CreateTableBuilder, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * The search across a lab's records (GET /search): one document per plant,
 * explant, task, SOP, room and contamination, written in the same transaction as
 * the record. SQLite indexes the documents with FTS5 (an external-content table
 * kept by triggers on the documents); PostgreSQL with a full-text vector of each
 * document and a GIN index. Where the server has pg_trgm, the plants' and
 * explants' search text also get trigram indexes, so the lists' `q` (a substring
 * search) no longer reads every row; a server without it keeps working as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const start = db.schema.createTable('search_documents');
  const keyed: CreateTableBuilder<any, any> = postgres
    ? start.addColumn('kind', 'text', (c) => c.notNull())
    : start
        .addColumn('seq', 'integer', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull());
  const columns = keyed
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('subtitle', 'text')
    .addColumn('name_text', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text')
    .addColumn('parent_text', 'text')
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0));
  const table = postgres
    ? columns.addPrimaryKeyConstraint('search_documents_pkey', ['kind', 'record_id'])
    : columns.addUniqueConstraint('search_documents_record', ['kind', 'record_id']);
  await table.execute();
  await db.schema
    .createIndex('search_documents_parent')
    .on('search_documents')
    .columns(['workspace_id', 'parent_id'])
    .execute();

  if (postgres) {
    await sql`alter table search_documents add column document tsvector generated always as (
      setweight(to_tsvector('simple', name_text), 'A') ||
      setweight(to_tsvector('simple', text), 'B') ||
      setweight(to_tsvector('simple', coalesce(parent_text, '')), 'C')) stored`.execute(db);
    await sql`create index search_documents_document on search_documents using gin (document)`.execute(
      db,
    );
    await trigramIndexes(db);
  } else {
    await sql`create virtual table search_fts using fts5(
      name_text, text, parent_text, content='search_documents', content_rowid='seq',
      tokenize='unicode61 remove_diacritics 2', prefix='2 3')`.execute(db);
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
  await backfill(db);
}

/**
 * Trigram indexes on the search text of plants and explants when pg_trgm can be
 * had: the extension is created if the server has it and the role may (a trusted
 * extension since PostgreSQL 13); otherwise nothing, in a savepoint so that the
 * migration's transaction goes on.
 */
async function trigramIndexes(db: Kysely<any>): Promise<void> {
  await sql`savepoint vitro_pg_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint vitro_pg_trgm`.execute(db);
    return;
  }
  await sql`release savepoint vitro_pg_trgm`.execute(db);
  for (const table of ['plants', 'explants']) {
    await sql`create index ${sql.id(`${table}_search_trigram`)} on ${sql.table(table)}
      using gin (search_text gin_trgm_ops)`.execute(db);
  }
}

/**
 * Words of letters and digits, lower case, accents and other marks removed, one
 * space between: the form documents and queries take (both engines then split
 * them alike: `MON-0042` is `mon 0042`).
 */
function normalise(values: readonly (string | null | undefined)[]): string {
  return values
    .filter((value): value is string => typeof value === 'string' && value !== '')
    .join(' ')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
    .join(' ');
}

const joined = (values: readonly (string | null | undefined)[]) => {
  const parts = values.filter((v): v is string => typeof v === 'string' && v !== '');
  return parts.length === 0 ? null : parts.join(' · ');
};

interface Document {
  kind: string;
  record_id: string;
  workspace_id: string;
  title: string;
  subtitle: string | null;
  name_text: string;
  text: string;
  parent_id: string | null;
  parent_text: string | null;
  archived: number;
}

const BATCH = 200;

async function insertAll(db: Kysely<any>, documents: readonly Document[]): Promise<void> {
  for (let i = 0; i < documents.length; i += BATCH) {
    await db
      .insertInto('search_documents')
      .values(documents.slice(i, i + BATCH))
      .execute();
  }
}

type Text = string | null;
interface PlantRow {
  id: string;
  workspace_id: string;
  species: string;
  common_name: Text;
  genus: Text;
  family: Text;
  cultivar: Text;
  external_id: Text;
  archived_at: Text;
}
interface ExplantRow {
  id: string;
  workspace_id: string;
  plant_id: Text;
  label: string;
  batch_number: Text;
  external_id: Text;
  archived_at: Text;
}
interface TaskRow {
  id: string;
  workspace_id: string;
  title: string;
  notes: Text;
  category: string;
  category_label: Text;
  genus: Text;
}
interface SopRow {
  id: string;
  workspace_id: string;
  title: string;
  description: Text;
  category: Text;
  tags: string;
  status: Text;
}
interface RoomRow {
  id: string;
  workspace_id: string;
  name: string;
  archived_at: Text;
}
interface ContaminationRow {
  id: string;
  workspace_id: string;
  issue: string;
  type: string;
  type_other: Text;
  severity: string;
  description: Text;
  notes: Text;
  suspected_source: Text;
}

/** Documents of the records stored before this migration, as the services write them. */
async function backfill(db: Kysely<any>): Promise<void> {
  const plants = (await db
    .selectFrom('plants')
    .select([
      'id',
      'workspace_id',
      'species',
      'common_name',
      'genus',
      'family',
      'cultivar',
      'external_id',
      'archived_at',
    ])
    .where('deleted_at', 'is', null)
    .execute()) as PlantRow[];
  const plantNames = new Map<string, string>();
  const plantDocs = plants.map((p): Document => {
    const names = normalise([p.common_name, p.species]);
    plantNames.set(p.id, names);
    const named = p.common_name !== null && p.common_name !== '';
    return {
      kind: 'plant',
      record_id: p.id,
      workspace_id: p.workspace_id,
      title: named ? p.common_name! : p.species,
      subtitle: joined([named ? p.species : null, p.cultivar, p.external_id]),
      name_text: names,
      text: normalise([p.genus, p.family, p.cultivar, p.external_id]),
      parent_id: null,
      parent_text: null,
      archived: p.archived_at === null ? 0 : 1,
    };
  });
  await insertAll(db, plantDocs);

  const explants = (await db
    .selectFrom('explants')
    .select([
      'id',
      'workspace_id',
      'plant_id',
      'label',
      'batch_number',
      'external_id',
      'archived_at',
    ])
    .where('deleted_at', 'is', null)
    .execute()) as ExplantRow[];
  await insertAll(
    db,
    explants.map((e) => ({
      kind: 'explant',
      record_id: e.id,
      workspace_id: e.workspace_id,
      title: e.label,
      subtitle: joined([e.batch_number, e.external_id]),
      name_text: normalise([e.label]),
      text: normalise([e.batch_number, e.external_id]),
      parent_id: e.plant_id,
      parent_text: e.plant_id === null ? null : (plantNames.get(e.plant_id) ?? null),
      archived: e.archived_at === null ? 0 : 1,
    })),
  );

  const tasks = (await db
    .selectFrom('tasks')
    .select(['id', 'workspace_id', 'title', 'notes', 'category', 'category_label', 'genus'])
    .execute()) as TaskRow[];
  await insertAll(
    db,
    tasks.map((t) => ({
      kind: 'task',
      record_id: t.id,
      workspace_id: t.workspace_id,
      title: t.title,
      subtitle: t.category_label ?? t.category,
      name_text: normalise([t.title]),
      text: normalise([t.notes, t.category_label, t.genus]),
      parent_id: null,
      parent_text: null,
      archived: 0,
    })),
  );

  const sops = (await db
    .selectFrom('sops')
    .select(['id', 'workspace_id', 'title', 'description', 'category', 'tags', 'status'])
    .execute()) as SopRow[];
  await insertAll(
    db,
    sops.map((s) => ({
      kind: 'sop',
      record_id: s.id,
      workspace_id: s.workspace_id,
      title: s.title,
      subtitle: s.category,
      name_text: normalise([s.title]),
      text: normalise([s.description, s.category, ...(JSON.parse(s.tags) as string[])]),
      parent_id: null,
      parent_text: null,
      archived: s.status === 'archived' ? 1 : 0,
    })),
  );

  const rooms = (await db
    .selectFrom('rooms')
    .select(['id', 'workspace_id', 'name', 'archived_at'])
    .execute()) as RoomRow[];
  await insertAll(
    db,
    rooms.map((r) => ({
      kind: 'room',
      record_id: r.id,
      workspace_id: r.workspace_id,
      title: r.name,
      subtitle: null,
      name_text: normalise([r.name]),
      text: '',
      parent_id: null,
      parent_text: null,
      archived: r.archived_at === null ? 0 : 1,
    })),
  );

  const contaminations = (await db
    .selectFrom('contaminations')
    .select([
      'id',
      'workspace_id',
      'issue',
      'type',
      'type_other',
      'severity',
      'description',
      'notes',
      'suspected_source',
    ])
    .where('deleted_at', 'is', null)
    .execute()) as ContaminationRow[];
  await insertAll(
    db,
    contaminations.map((c) => ({
      kind: 'contamination',
      record_id: c.id,
      workspace_id: c.workspace_id,
      title: c.issue,
      subtitle: joined([c.type_other ?? c.type, c.severity]),
      name_text: normalise([c.issue]),
      text: normalise([c.type, c.type_other, c.description, c.notes, c.suspected_source]),
      parent_id: null,
      parent_text: null,
      archived: 0,
    })),
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql`drop index if exists plants_search_trigram`.execute(db);
    await sql`drop index if exists explants_search_trigram`.execute(db);
  } else {
    await sql`drop table search_fts`.execute(db);
  }
  await db.schema.dropTable('search_documents').execute();
}
