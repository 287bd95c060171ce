import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { changedValues, diffFields, type FieldChanges } from '../../lib/changes.js';
import { AppError, errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordRef, RecordSource } from '../../kernel/record-lookup.js';
import {
  insertRecipeVersion,
  listVisibleRecipes,
  mediaRecipes,
  type MediaRecipeRow,
} from './media-recipes.repository.js';
import type {
  CreateMediaRecipeBody,
  MediaRecipe,
  UpdateMediaRecipeBody,
} from './media-recipes.schemas.js';

export type MediaRecipeRecord = Static<typeof MediaRecipe>;
type Component = MediaRecipeRecord['components'][number];
type ComponentInput = Static<typeof CreateMediaRecipeBody>['components'][number];
type UpdateInput = Static<typeof UpdateMediaRecipeBody>;

const notFound = () => errors.notFound('Media recipe');

/** Shared with the team, public or published: every member of the workspace sees it. */
function isShared(row: Pick<MediaRecipeRow, 'visibility' | 'is_public' | 'status'>): boolean {
  return row.visibility === 'team' || row.is_public === 1 || row.status === 'published';
}

/** A member sees their own recipes and the shared ones; another's private recipe does not exist for them. */
function visibleTo(row: MediaRecipeRow, memberId: string | null): boolean {
  return row.created_by === memberId || isShared(row);
}

export function presentMediaRecipe(row: MediaRecipeRow): MediaRecipeRecord {
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    origin: row.origin,
    visibility: row.visibility,
    is_public: row.is_public === 1,
    notes: row.notes,
    ph_target: row.ph_target_centi === null ? null : row.ph_target_centi / 100,
    sterilization_notes: row.sterilization_notes,
    storage_notes: row.storage_notes,
    usage_notes: row.usage_notes,
    components: JSON.parse(row.components) as Component[],
    version: row.version,
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * pH in hundredths, rounded half up as written: 1.005 is 1.01 although the double
 * nearest 1.005 lies just below it (12 significant digits drop that binary noise;
 * `+ 0` makes -0 plain 0).
 */
export const phCenti = (ph: number | null) =>
  ph === null ? null : Math.round(Number((ph * 100).toPrecision(12))) + 0;

const sameComponent = (sent: ComponentInput, stored: Component) =>
  sent.name === stored.name &&
  sent.qty === stored.qty &&
  (sent.unit ?? null) === stored.unit &&
  (sent.concentration ?? null) === stored.concentration;

/**
 * The stored form of a sent component list. Sent ids are kept and missing ones
 * assigned, except that a list equal to `stored` in everything but ids keeps the
 * stored ids where none was sent: sending a recipe's components again changes
 * nothing. Ids are unique within a recipe (422).
 */
function componentsOf(sent: readonly ComponentInput[], stored: readonly Component[]): Component[] {
  const resent =
    sent.length === stored.length && sent.every((item, i) => sameComponent(item, stored[i]!));
  const components = sent.map((item, i) => ({
    id: item.id ?? (resent ? stored[i]!.id : newId()),
    name: item.name,
    qty: item.qty,
    unit: item.unit ?? null,
    concentration: item.concentration ?? null,
  }));
  const positions = new Map<string, number>();
  components.forEach((component, i) => {
    const first = positions.get(component.id);
    if (first !== undefined) {
      throw errors.validation(
        `components[${i}].id: "${component.id}" is already the id of components[${first}]`,
      );
    }
    positions.set(component.id, i);
  });
  return components;
}

/** The formulation columns: a change to any of them makes a new version. */
const FORMULATION = [
  'title',
  'notes',
  'ph_target_centi',
  'sterilization_notes',
  'storage_notes',
  'usage_notes',
  'components',
] as const;

/** Records the formulation of the recipe's current version (append-only history). */
async function recordVersion(trx: Trx, row: MediaRecipeRow, by: string, now: string) {
  await insertRecipeVersion(trx, {
    id: newId(),
    workspace_id: row.workspace_id,
    recipe_id: row.id,
    version: row.version,
    title: row.title,
    notes: row.notes,
    ph_target_centi: row.ph_target_centi,
    sterilization_notes: row.sterilization_notes,
    storage_notes: row.storage_notes,
    usage_notes: row.usage_notes,
    components: row.components,
    created_by: by,
    created_at: now,
  });
}

/** The member a key acts for (these routes take workspace API keys only, never device tokens). */
function memberOf(principal: Principal): string {
  if (principal.memberId === null) throw new Error('a media recipe is written by a member');
  return principal.memberId;
}

/** Creates a recipe as the key's owner, version 1, and records that version. */
export async function createMediaRecipe(
  trx: Trx,
  principal: Principal,
  input: Static<typeof CreateMediaRecipeBody>,
  now: string,
): Promise<MediaRecipeRecord> {
  const author = memberOf(principal);
  const row: MediaRecipeRow = {
    id: newId(),
    workspace_id: principal.workspaceId,
    title: input.title,
    status: input.status ?? 'active',
    origin: input.origin ?? 'user',
    visibility: input.visibility ?? 'private',
    is_public: input.is_public === true ? 1 : 0,
    notes: input.notes ?? null,
    ph_target_centi: phCenti(input.ph_target ?? null),
    sterilization_notes: input.sterilization_notes ?? null,
    storage_notes: input.storage_notes ?? null,
    usage_notes: input.usage_notes ?? null,
    components: JSON.stringify(componentsOf(input.components, [])),
    version: 1,
    created_by: author,
    created_at: now,
    updated_at: now,
  };
  await mediaRecipes.insert(trx, row);
  await recordVersion(trx, row, author, now);
  return presentMediaRecipe(row);
}

export async function getMediaRecipe(
  db: Db,
  principal: Principal,
  id: string,
): Promise<MediaRecipeRecord> {
  const row = await mediaRecipes.find(db, principal.workspaceId, id);
  if (row === undefined || !visibleTo(row, principal.memberId)) throw notFound();
  return presentMediaRecipe(row);
}

/** Newest first, the caller's own and the shared ones, optionally of one status. */
export async function listMediaRecipes(
  db: Db,
  principal: Principal,
  query: { status?: string },
  page: PageRequest,
): Promise<Page<MediaRecipeRecord>> {
  const { items, nextKey } = await listVisibleRecipes(
    db,
    principal.workspaceId,
    principal.memberId,
    query.status,
    page,
  );
  return { items: items.map(presentMediaRecipe), nextKey };
}

/** The columns a PATCH changes, and whether the formulation is among them. */
function planRecipeUpdate(
  row: MediaRecipeRow,
  input: UpdateInput,
): { changes: FieldChanges; formulation: boolean } {
  const components =
    input.components === undefined
      ? undefined
      : JSON.stringify(
          componentsOf(input.components, JSON.parse(row.components) as readonly Component[]),
        );
  const values: Partial<MediaRecipeRow> = {
    title: input.title,
    notes: input.notes,
    ph_target_centi: input.ph_target === undefined ? undefined : phCenti(input.ph_target),
    sterilization_notes: input.sterilization_notes,
    storage_notes: input.storage_notes,
    usage_notes: input.usage_notes,
    components,
    status: input.status,
    visibility: input.visibility,
    is_public: input.is_public === undefined ? undefined : input.is_public ? 1 : 0,
  };
  const changes = diffFields(row, values, [...FORMULATION, 'status', 'visibility', 'is_public']);
  return { changes, formulation: FORMULATION.some((field) => field in changes) };
}

/**
 * Partial update by the recipe's creator only (403 MEDIA_RECIPE_NOT_OWNER; a
 * recipe the caller cannot see is 404). `components` replaces the whole list. A
 * change of formulation (title, notes, pH, components, prep notes) makes the next
 * version and records it; status, visibility and is_public change in place.
 * Nothing changed: nothing written.
 */
export async function updateMediaRecipe(
  trx: Trx,
  principal: Principal,
  id: string,
  input: UpdateInput,
  now: string,
): Promise<MediaRecipeRecord> {
  const author = memberOf(principal);
  // Locked: concurrent edits of one recipe queue here and number their versions in turn.
  const row = await mediaRecipes.lock(trx, principal.workspaceId, id);
  if (row === undefined || !visibleTo(row, author)) throw notFound();
  if (row.created_by !== author) {
    throw new AppError(
      'MEDIA_RECIPE_NOT_OWNER',
      'Only the member who created this media recipe may change it',
    );
  }
  const { changes, formulation } = planRecipeUpdate(row, input);
  if (Object.keys(changes).length === 0) return presentMediaRecipe(row);
  const update = changedValues(changes) as Partial<MediaRecipeRow>;
  update.updated_at = now;
  if (formulation) update.version = row.version + 1;
  await mediaRecipes.update(trx, principal.workspaceId, id, update);
  const updated = { ...row, ...update };
  if (formulation) await recordVersion(trx, updated, author, now);
  return presentMediaRecipe(updated);
}

/**
 * The recipe a media batch is made from, as `principal` sees it, and the version
 * asked for (1 up to the current one; default the current one): 422 naming
 * `recipe_id` for a recipe the caller cannot see, `recipe_version` for one it never had.
 */
export async function recipeVersionFor(
  db: Db,
  principal: Principal,
  recipeId: string,
  version: number | undefined,
): Promise<{ id: string; title: string; version: number }> {
  const row = await mediaRecipes.find(db, principal.workspaceId, recipeId);
  if (row === undefined || !visibleTo(row, principal.memberId)) {
    throw errors.validation('recipe_id: no media recipe with this id in the workspace');
  }
  if (version !== undefined && version > row.version) {
    throw errors.validation(
      `recipe_version: the recipe has versions 1 to ${row.version}; ${version} is not one of them`,
    );
  }
  return { id: row.id, title: row.title, version: version ?? row.version };
}

function refOf(row: MediaRecipeRow | undefined): (RecordRef & { title: string }) | undefined {
  return row === undefined
    ? undefined
    : { id: row.id, created_by: row.created_by, creatorOnly: !isShared(row), title: row.title };
}

/** How other modules find a recipe (comments name them); private ones are `creatorOnly`. */
export const mediaRecipeRecords: RecordSource<RecordRef & { title: string }> = {
  find: async (db, workspaceId, id) => refOf(await mediaRecipes.find(db, workspaceId, id)),
  lock: async (trx, workspaceId, id) => refOf(await mediaRecipes.lock(trx, workspaceId, id)),
};
