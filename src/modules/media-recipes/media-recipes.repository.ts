import type { Db, Trx } from '../../db/database.js';
import { fetchPage, NEWEST_FIRST, type Page, type PageRequest } from '../../db/pages.js';
import type { MediaRecipeTable, MediaRecipeVersionTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';

export type MediaRecipeRow = MediaRecipeTable;
export type MediaRecipeVersionRow = MediaRecipeVersionTable;

const COLUMNS = [
  'id',
  'workspace_id',
  'title',
  'status',
  'origin',
  'visibility',
  'is_public',
  'notes',
  'ph_target_centi',
  'sterilization_notes',
  'storage_notes',
  'usage_notes',
  'components',
  'version',
  'created_by',
  'created_at',
  'updated_at',
] as const;

/** Recipes by id, locked for a write, inserted, updated. */
export const mediaRecipes = workspaceTable('media_recipes', COLUMNS);

/** The recipes a member sees, newest first: their own, and those shared with the team or published. */
export function listVisibleRecipes(
  db: Db,
  workspaceId: string,
  viewer: string | null,
  status: string | undefined,
  page: PageRequest,
): Promise<Page<MediaRecipeRow>> {
  let query = db
    .selectFrom('media_recipes')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where((eb) =>
      eb.or([
        ...(viewer === null ? [] : [eb('created_by', '=', viewer)]),
        eb('visibility', '=', 'team'),
        eb('is_public', '=', 1),
        eb('status', '=', 'published'),
      ]),
    );
  if (status !== undefined) query = query.where('status', '=', status);
  return fetchPage(query, NEWEST_FIRST, page);
}

export async function insertRecipeVersion(trx: Trx, row: MediaRecipeVersionRow): Promise<void> {
  await trx.insertInto('media_recipe_versions').values(row).execute();
}
