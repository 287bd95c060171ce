import type { Db, Trx } from '../db/database.js';
import { errors } from './errors.js';

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

/**
 * How one module lets others find its records (a `workspaceTable` gateway is one).
 * `R` is what it hands out: at least a RecordRef, often the whole row.
 */
export interface RecordSource<R extends RecordRef = RecordRef> {
  find(db: Db, workspaceId: string, id: string): Promise<R | undefined>;
  /** `find`, holding the record until the transaction ends (writes that change it queue). */
  lock(trx: Trx, workspaceId: string, id: string): Promise<R | undefined>;
}

/** What the lookup hands out for each kind: a RecordRef, or more where a module needs more. */
export type RecordRefs = { readonly [K in RecordKind]: RecordRef };

/**
 * "The record of kind K with id X in workspace W", for every kind: built once
 * from each module's source (`src/modules/index.ts`) and handed to the modules
 * that name other records. An id of another workspace finds nothing, exactly as
 * an id that exists nowhere.
 *
 * A module that changes the record it locked in another module (an explant
 * transfer changes the explant's counts) hands the locked record on instead of
 * reading it again, and says what it needs of it in its `Refs`
 * (`RecordLookup<RecordRefs & { explant: … }>`); the wiring's type check proves
 * that the kind's source hands that out.
 */
export interface RecordLookup<Refs extends RecordRefs = RecordRefs> {
  find<K extends RecordKind>(
    db: Db,
    kind: K,
    workspaceId: string,
    id: string,
  ): Promise<Refs[K] | undefined>;
  lock<K extends RecordKind>(
    trx: Trx,
    kind: K,
    workspaceId: string,
    id: string,
  ): Promise<Refs[K] | undefined>;
}

/** One source per record kind. */
export type RecordSources = { readonly [K in RecordKind]: RecordSource };

/** What each source of `S` hands out. */
export type RecordRefsOf<S extends RecordSources> = {
  readonly [K in RecordKind]: S[K] extends RecordSource<infer R> ? R : RecordRef;
};

export function recordLookup<S extends RecordSources>(sources: S): RecordLookup<RecordRefsOf<S>> {
  return {
    find: (db, kind, workspaceId, id) => sources[kind].find(db, workspaceId, id) as never,
    lock: (trx, kind, workspaceId, id) => sources[kind].lock(trx, workspaceId, id) as never,
  };
}

/**
 * The plant and the explant a write names (either may be left out) must exist in
 * the workspace: otherwise 404 naming the one that does not.
 */
export async function requireNamedPlantAndExplant(
  db: Db,
  records: RecordLookup,
  workspaceId: string,
  named: { readonly plantId: string | null; readonly explantId: string | null },
): Promise<void> {
  const { plantId, explantId } = named;
  if (plantId !== null && (await records.find(db, 'plant', workspaceId, plantId)) === undefined) {
    throw errors.notFound('Plant');
  }
  if (
    explantId !== null &&
    (await records.find(db, 'explant', workspaceId, explantId)) === undefined
  ) {
    throw errors.notFound('Explant');
  }
}
