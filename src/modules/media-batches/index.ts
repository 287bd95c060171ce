/* The media-batches module's face: batches of medium, and whether cultures may be put on one. */
export { requireUsableMediaBatch } from './media-batches.service.js';
export {
  markExpiredBatches,
  mediaBatchLabel,
  mediaBatchNames,
} from './media-batches.repository.js';
