import type { Db, Trx } from '../db/database.js';

/** The kinds of record other records can name (a stage's plant, a comment's task, …). */
export const RECORD_KINDS = [
  'plant',
  'explant',
  'contamination',
  'media_recipe',
  'task',
  'sop',
  'plant_transfer',
  'explant_transfer',
  'sop_run',
] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** What a module needs to know of a record another module owns. */
export interface RecordRef {
  readonly id: string;
  /** The member who created it; moves and edits of others' records need a manager. */
  readonly created_by: string | null;
  /**
   * Set on a record only its creator may see (another member's private media
   * recipe): to anyone else it must answer exactly as an id that exists nowhere.
   */
  readonly creatorOnly?: boolean;
}

/** Whether a member may see a record found by the lookup (see `creatorOnly`). */
export function recordVisibleTo(ref: RecordRef, memberId: string | null): boolean {
  return ref.creatorOnly !== true || (memberId !== null && ref.created_by === memberId);
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

/** One source per record kind. */
export type RecordSources = Readonly<Record<RecordKind, RecordSource>>;

export function recordLookup(sources: RecordSources): RecordLookup {
  return {
    find: (db, kind, workspaceId, id) => sources[kind].find(db, workspaceId, id),
    lock: (trx, kind, workspaceId, id) => sources[kind].lock(trx, workspaceId, id),
  };
}
