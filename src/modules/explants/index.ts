/* The explants module's face: explants, and what a transfer changes of one. */
export { explantRecords } from './explants.repository.js';
export {
  applyTransferCounts,
  type ExplantCounts,
  createExplant,
  getExplant,
  listExplants,
} from './explants.service.js';
