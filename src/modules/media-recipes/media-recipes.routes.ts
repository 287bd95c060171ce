import type { Routes } from '../../kernel/routes/index.js';
import {
  CreateMediaRecipeBody,
  MediaRecipe,
  MediaRecipeParams,
  MediaRecipeQuery,
  UpdateMediaRecipeBody,
} from './media-recipes.schemas.js';
import {
  createMediaRecipe,
  getMediaRecipe,
  listMediaRecipes,
  updateMediaRecipe,
} from './media-recipes.service.js';

const VISIBILITY =
  'A member sees their own recipes and those shared with the team (`visibility: team`), ' +
  "public or published; another member's private recipe is answered as if it did not exist.";

export function registerMediaRecipeRoutes(routes: Routes): void {
  routes.list({
    url: '/api/v1/media-recipes',
    operationId: 'listMediaRecipes',
    tags: ['Media recipes'],
    summary: 'List media recipes',
    description: `Newest first, optionally of one \`status\`. ${VISIBILITY}`,
    scope: 'read:media_recipes',
    failureCode: 'MEDIA_RECIPE_QUERY_FAILED',
    querystring: MediaRecipeQuery,
    paging: { list: 'media-recipes' },
    item: MediaRecipe,
    handler: (req, ctx) => listMediaRecipes(ctx.db, ctx.principal, req.query, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/media-recipes',
    operationId: 'createMediaRecipe',
    tags: ['Media recipes'],
    summary: 'Create a media recipe',
    description:
      'Created by the key owner as version 1; private, active, not public and of origin `user` unless ' +
      'sent otherwise. A component sent without `id` is given one; `ph_target` is stored to two decimals.',
    scope: 'write:media_recipes',
    failureCode: 'MEDIA_RECIPE_CREATE_FAILED',
    body: CreateMediaRecipeBody,
    data: MediaRecipe,
    handler: async (req, ctx) => ({
      data: await createMediaRecipe(ctx.trx, ctx.principal, req.body, ctx.now),
    }),
  });

  routes.read({
    url: '/api/v1/media-recipes/:id',
    operationId: 'getMediaRecipe',
    tags: ['Media recipes'],
    summary: 'Get a media recipe',
    description: VISIBILITY,
    scope: 'read:media_recipes',
    failureCode: 'MEDIA_RECIPE_QUERY_FAILED',
    params: MediaRecipeParams,
    notFound: 'Media recipe',
    data: MediaRecipe,
    handler: async (req, ctx) => ({
      data: await getMediaRecipe(ctx.db, ctx.principal, req.params.id),
    }),
  });

  routes.write({
    method: 'PATCH',
    url: '/api/v1/media-recipes/:id',
    operationId: 'updateMediaRecipe',
    tags: ['Media recipes'],
    summary: 'Update a media recipe',
    description:
      'Partial; only its creator may change a recipe (403 MEDIA_RECIPE_NOT_OWNER). `components` ' +
      'replaces the whole list. A change of formulation (title, notes, components, ph_target, ' +
      'sterilization, storage or usage notes) makes the next version; status, visibility and ' +
      `is_public do not. ${VISIBILITY}`,
    scope: 'write:media_recipes',
    failureCode: 'MEDIA_RECIPE_UPDATE_FAILED',
    errors: ['MEDIA_RECIPE_NOT_OWNER'],
    params: MediaRecipeParams,
    notFound: 'Media recipe',
    body: UpdateMediaRecipeBody,
    data: MediaRecipe,
    // A client may send back the record it read.
    current: (req, ctx) => getMediaRecipe(ctx.trx, ctx.principal, req.params.id),
    handler: async (req, ctx) => ({
      data: await updateMediaRecipe(ctx.trx, ctx.principal, req.params.id, req.body, ctx.now),
    }),
  });
}
