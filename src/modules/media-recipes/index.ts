/* The media-recipes module's face: media recipes, private or shared. */
export {
  createMediaRecipe,
  mediaRecipeRecords,
  phCenti,
  recipeVersionFor,
  updateMediaRecipe,
} from './media-recipes.service.js';
