import type { Db, Trx } from '../db/database.js';

/** The kinds of record other records can name (a stage's plant, a comment's task, …). */
export const RECORD_KINDS = ['plant', 'explant', 'sop'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** What a module needs to know of a record another module owns. */
export interface RecordRef {
  readonly id: string;
  /** The member who created it; moves and edits of others' records need a manager. */
  readonly created_by: string | null;
}

/** How one module lets others find its records (a `workspaceTable` gateway is one). */
export interface RecordSource {
  find(db: Db, workspaceId: string, id: string): Promise<RecordRef | undefined>;
  /** `find`, holding the record until the transaction ends (writes that change it queue). */
  lock(trx: Trx, workspaceId: string, id: string): Promise<RecordRef | undefined>;
}

/**
 * "The record of kind K with id X in workspace W", for every kind: built once
 * from each module's source (`src/modules/index.ts`) and handed to the modules
 * that name other records. An id of another workspace finds nothing, exactly as
 * an id that exists nowhere.
 */
export interface RecordLookup {
  find(db: Db, kind: RecordKind, workspaceId: string, id: string): Promise<RecordRef | undefined>;
  lock(trx: Trx, kind: RecordKind, workspaceId: string, id: string): Promise<RecordRef | undefined>;
}

export function recordLookup(sources: Readonly<Record<RecordKind, RecordSource>>): RecordLookup {
  return {
    find: (db, kind, workspaceId, id) => sources[kind].find(db, workspaceId, id),
    lock: (trx, kind, workspaceId, id) => sources[kind].lock(trx, workspaceId, id),
  };
}
