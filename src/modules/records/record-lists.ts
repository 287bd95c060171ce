import { countsByKey } from '../../lib/counts.js';
import { sql, type SelectQueryBuilder } from 'kysely';
import Type from 'typebox';
import type { Db } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { errors } from '../../kernel/errors.js';
import { StringEnum, Uuid } from '../../kernel/schemas.js';
import { hasRoom, stageList, type StageEntity } from '../lab/index.js';
import { resolveStageKey } from './stage-lists.js';

/**
 * The filters plants and explants share in their lists (beyond the wire format's
 * `externalId`): current stage, room, status, a search, and archived records.
 */
export const ARCHIVED_MODES = ['exclude', 'include', 'only'] as const;
export type ArchivedMode = (typeof ARCHIVED_MODES)[number];

export const Q_MAX_LENGTH = 100;

export const recordListFilters = (noun: string, searched: string) => ({
  stage: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 50,
      description: `Only ${noun}s now in this stage: a key or display name of the lab's list (422 for another)`,
    }),
  ),
  room_id: Type.Optional(
    Uuid({
      description: `Only ${noun}s whose current stage is in this room (404 for an unknown room)`,
    }),
  ),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: Q_MAX_LENGTH,
      description: `Case-insensitive search: the text appears in the ${noun}'s ${searched}`,
    }),
  ),
  archived: Type.Optional(
    StringEnum(ARCHIVED_MODES, {
      description: `exclude (default): archived ${noun}s are left out; include: listed too; only: archived ones alone`,
    }),
  ),
});

/** The names a search matches, lower-cased once when a record is written. */
export function searchTextOf(values: readonly (string | null | undefined)[]): string {
  return values
    .filter((value): value is string => typeof value === 'string' && value !== '')
    .join('\n')
    .toLowerCase();
}

/** `%text%` for LIKE, with the wildcards of the text itself escaped (`\` is the escape). */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Checked filters, ready for the query: the stage as a key, the room known to exist. */
export interface RecordFilters {
  readonly stage?: string;
  readonly roomId?: string;
  readonly status?: string;
  readonly q?: string;
  readonly archived: ArchivedMode;
}

/**
 * Turns a list's query into filters: the stage must be in the lab's list for the
 * kind (a retired stage too), the room a room of the workspace (422 naming the parameter: the wire
 * format's lists of plants and explants answer no 404).
 */
export async function checkRecordFilters(
  db: Db,
  workspaceId: string,
  entity: StageEntity,
  query: { stage?: string; room_id?: string; status?: string; q?: string; archived?: ArchivedMode },
): Promise<RecordFilters> {
  let stage: string | undefined;
  if (query.stage !== undefined) {
    // A retired stage too: records may still be in it.
    const { active, retired } = await stageList(db, workspaceId, entity);
    const options = [...active, ...retired];
    const key = resolveStageKey(options, query.stage);
    if (key === null) {
      throw errors.validation(
        `stage: "${query.stage}" is not in this lab's ${entity} stage list; use one of ${options
          .map((o) => o.key)
          .join(', ')}`,
      );
    }
    stage = key;
  }
  if (query.room_id !== undefined && !(await hasRoom(db, workspaceId, query.room_id))) {
    throw errors.validation('room_id: no room with this id in the workspace');
  }
  return {
    ...(stage === undefined ? {} : { stage }),
    ...(query.room_id === undefined ? {} : { roomId: query.room_id }),
    ...(query.status === undefined ? {} : { status: query.status }),
    ...(query.q === undefined ? {} : { q: query.q }),
    archived: query.archived ?? 'exclude',
  };
}

/** Whether a list query sends any of the shared filters (`externalId` takes none of them). */
export function hasRecordFilters(query: Record<string, unknown>): boolean {
  return ['stage', 'room_id', 'status', 'q', 'archived'].some((name) => query[name] !== undefined);
}

/** No filter but the default (archived records left out): the list most clients ask for. */
export function isPlainList(filters: RecordFilters): boolean {
  return Object.keys(filters).length === 1 && filters.archived === 'exclude';
}

type RecordTable = 'plants' | 'explants';

/** Adds the filters to a list query of plants or explants (deleted records are never listed). */
export function applyRecordFilters<T extends RecordTable, O>(
  query: SelectQueryBuilder<DB, T, O>,
  filters: RecordFilters,
): SelectQueryBuilder<DB, T, O> {
  // The columns are the same in both tables; Kysely cannot check a column of a generic table.
  const loose = query as unknown as SelectQueryBuilder<DB, RecordTable, O>;
  let out = loose.where('deleted_at', 'is', null);
  if (filters.archived === 'exclude') out = out.where('archived_at', 'is', null);
  if (filters.archived === 'only') out = out.where('archived_at', 'is not', null);
  if (filters.stage !== undefined) out = out.where('current_stage', '=', filters.stage);
  if (filters.roomId !== undefined) out = out.where('current_room_id', '=', filters.roomId);
  if (filters.status !== undefined) out = out.where('status', '=', filters.status);
  if (filters.q !== undefined) {
    out = out.where(
      sql<boolean>`${sql.ref('search_text')} like ${containsPattern(filters.q)} escape '\\'`,
    );
  }
  return out;
}

const TABLES = { plant: 'plants', explant: 'explants' } as const;

/**
 * How many plants or explants are now in each of `roomIds` (their current stage's
 * room), archived ones left out: one grouped query on (workspace_id, current_room_id, …).
 */
export async function countRecordsByRoom(
  db: Db,
  entity: StageEntity,
  workspaceId: string,
  roomIds: readonly string[],
): Promise<Map<string, number>> {
  return countsByKey(roomIds, (ids) =>
    db
      .selectFrom(TABLES[entity])
      .select(['current_room_id as key', (eb) => eb.fn.countAll<number>().as('count')])
      .where('workspace_id', '=', workspaceId)
      .where('current_room_id', 'in', ids)
      .where('deleted_at', 'is', null)
      .where('archived_at', 'is', null)
      .groupBy('current_room_id')
      .execute(),
  );
}
