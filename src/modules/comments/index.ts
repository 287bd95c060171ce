/* The comments module's face: comments on records. */
export { createComment } from './comments.service.js';
