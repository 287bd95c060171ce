/* The comments module's face: comments on records. */
export { createComment, type CommentRecords } from './comments.service.js';
