import { sql } from 'kysely';
import { bulkInsert } from '../../db/bulk-insert.js';
import { preparedQuery } from '../../db/prepared.js';
import { isPostgres, type Db, type Trx } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import type { SearchDocumentTable } from '../../db/schema.js';
import { normaliseSearchText, type SearchDocument } from './search.documents.js';
import type { SearchKind } from './search.schemas.js';

/**
 * Writes a record's document (inserted, or replaced when it exists): an explant's
 * takes its plant's names as its parent text, and a plant's names go to the
 * documents of its explants.
 */
export async function saveDocument(trx: Trx, document: SearchDocument): Promise<void> {
  const row = rowOf(document);
  const names = row.name_text;
  const parentId = row.parent_id;
  const parentText =
    parentId === null
      ? null
      : trx
          .selectFrom('search_documents')
          .select('name_text')
          .where('kind', '=', 'plant')
          .where('record_id', '=', parentId);
  await trx
    .insertInto('search_documents')
    .values({ ...row, parent_text: parentText })
    .onConflict((oc) =>
      oc.columns(['kind', 'record_id']).doUpdateSet((eb) => ({
        title: eb.ref('excluded.title'),
        subtitle: eb.ref('excluded.subtitle'),
        name_text: eb.ref('excluded.name_text'),
        text: eb.ref('excluded.text'),
        parent_id: eb.ref('excluded.parent_id'),
        parent_text: eb.ref('excluded.parent_text'),
        archived: eb.ref('excluded.archived'),
      })),
    )
    .execute();
  if (document.kind === 'plant') {
    await trx
      .updateTable('search_documents')
      .set({ parent_text: names })
      .where('workspace_id', '=', document.workspaceId)
      .where('parent_id', '=', document.id)
      .where('kind', '=', 'explant')
      .where((eb) => eb.or([eb('parent_text', 'is', null), eb('parent_text', '!=', names)]))
      .execute();
  }
}

const insertDocument = preparedQuery((db, p: Omit<SearchDocumentTable, 'parent_text'>) =>
  db.insertInto('search_documents').values({
    // Each field named: the placeholders are a proxy, which a spread would not copy.
    kind: p.kind,
    record_id: p.record_id,
    workspace_id: p.workspace_id,
    title: p.title,
    subtitle: p.subtitle,
    name_text: p.name_text,
    text: p.text,
    parent_id: p.parent_id,
    archived: p.archived,
    parent_text: db
      .selectFrom('search_documents')
      .select('name_text')
      .where('kind', '=', 'plant')
      .where('record_id', '=', p.parent_id),
  }),
);

/**
 * The document of a record just created (POST /plants and the like): one compiled
 * statement, its parent's names read in it.
 */
export async function saveNewDocument(trx: Trx, document: SearchDocument): Promise<void> {
  await insertDocument.run(trx, rowOf(document));
}

/** A document's row, but for its parent's names (read from the parent's document). */
function rowOf(document: SearchDocument): Omit<SearchDocumentTable, 'parent_text'> {
  return {
    kind: document.kind,
    record_id: document.id,
    workspace_id: document.workspaceId,
    title: document.title,
    subtitle: document.subtitle,
    name_text: normaliseSearchText(document.names),
    text: normaliseSearchText(document.fields),
    parent_id: document.parentId ?? null,
    archived: document.archived ? 1 : 0,
  };
}

const insertDocuments = bulkInsert('search_documents', {
  kind: 'text',
  record_id: 'text',
  workspace_id: 'text',
  title: 'text',
  subtitle: 'text',
  name_text: 'text',
  text: 'text',
  parent_id: 'text',
  parent_text: 'text',
  archived: 'integer',
});

/**
 * The documents of many new records at once (one statement on PostgreSQL): each
 * with its parent's names, read in one query.
 */
export async function saveNewDocuments(
  trx: Trx,
  workspaceId: string,
  documents: readonly SearchDocument[],
): Promise<void> {
  const parentIds = [
    ...new Set(documents.flatMap((d) => (d.parentId == null ? [] : [d.parentId]))),
  ];
  const parents = new Map<string, string>();
  for (let start = 0; start < parentIds.length; start += 500) {
    const rows = await trx
      .selectFrom('search_documents')
      .select(['record_id', 'name_text'])
      .where('workspace_id', '=', workspaceId)
      .where('kind', '=', 'plant')
      .where('record_id', 'in', parentIds.slice(start, start + 500))
      .execute();
    for (const row of rows) parents.set(row.record_id, row.name_text);
  }
  await insertDocuments.run(
    trx,
    documents.map((document) => ({
      ...rowOf(document),
      parent_text: document.parentId == null ? null : (parents.get(document.parentId) ?? null),
    })),
  );
}

/** Marks a record's document archived (left out of searches) or not. */
export async function setDocumentArchived(
  trx: Trx,
  workspaceId: string,
  kind: SearchKind,
  id: string,
  archived: boolean,
): Promise<void> {
  await trx
    .updateTable('search_documents')
    .set({ archived: archived ? 1 : 0 })
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', kind)
    .where('record_id', '=', id)
    .execute();
}

/**
 * SQLite: takes the documents written since the last time (`search_pending`) into
 * the FTS5 index, all in one transaction, so that one segment of the index is
 * written for all of them rather than one per record's transaction. Runs before
 * every search and every second (`startSearchCatchUp`); nothing pending, it only
 * reads. PostgreSQL keeps its index in each write's transaction: nothing to do.
 */
export async function catchUpSearchIndex(db: Db): Promise<void> {
  if (isPostgres(db)) return;
  const pending = await sql<{ seq: number }>`select seq from search_pending limit 1`.execute(db);
  if (pending.rows.length === 0) return;
  const takeIn = async (trx: Trx) => {
    await sql`insert into search_fts(rowid, name_text, text, parent_text)
      select d.seq, d.name_text, d.text, d.parent_text
      from search_pending p join search_documents d on d.seq = p.seq
      order by p.seq`.execute(trx);
    await sql`delete from search_pending`.execute(trx);
  };
  if (db.isTransaction) await takeIn(db as Trx);
  else await inTransaction(db, takeIn);
}

export type SearchHit = Pick<
  SearchDocumentTable,
  'kind' | 'record_id' | 'title' | 'subtitle' | 'parent_id'
>;

/**
 * The documents of the workspace (not archived, of these kinds) holding every word
 * as the start of one of theirs (a word of one character: as a whole word, or it
 * would match nearly everything), best first, from `offset`: a record's names above
 * its other fields, and those above its parent's names (SQLite weighs them in FTS5's
 * bm25; PostgreSQL ranks them in those three tiers, then by title).
 */
export async function searchDocuments(
  db: Db,
  input: {
    workspaceId: string;
    words: readonly string[];
    kinds: readonly SearchKind[];
    offset: number;
    limit: number;
  },
): Promise<SearchHit[]> {
  const { workspaceId, words, kinds, offset, limit } = input;
  if (isPostgres(db)) {
    // Ranked in tiers (every word in the names, in the record's own fields, else through
    // its plant), then by title: ts_rank reads every match's vector again, several times
    // the cost of the search itself when a word is in thousands of records.
    const query = (weights: string) =>
      words.map((word) => `${word}:${word.length === 1 ? '' : '*'}${weights}`).join(' & ');
    const result = await sql<SearchHit>`
      select d.kind, d.record_id, d.title, d.subtitle, d.parent_id
      from search_documents d
      where d.document @@ to_tsquery('simple', ${query('')})
        and d.workspace_id = ${workspaceId} and d.archived = 0
        and d.kind in (${sql.join(kinds)})
      order by case
          when d.document @@ to_tsquery('simple', ${query('A')}) then 0
          when d.document @@ to_tsquery('simple', ${query('AB')}) then 1
          else 2 end,
        d.title, d.record_id
      limit ${limit} offset ${offset}`.execute(db);
    return result.rows;
  }
  await catchUpSearchIndex(db);
  const match = words.map((word) => (word.length === 1 ? `"${word}"` : `"${word}"*`)).join(' AND ');
  const result = await sql<SearchHit>`
    select d.kind, d.record_id, d.title, d.subtitle, d.parent_id
    from search_fts join search_documents d on d.seq = search_fts.rowid
    where search_fts match ${match} and d.workspace_id = ${workspaceId} and d.archived = 0
      and d.kind in (${sql.join(kinds)})
    order by bm25(search_fts, 4.0, 1.0, 0.5), d.title, d.record_id
    limit ${limit} offset ${offset}`.execute(db);
  return result.rows;
}
