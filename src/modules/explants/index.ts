/* The explants module's face: explants, and what a transfer changes of one. */
export { explantRecords } from './explants.repository.js';
export {
  applyExplantTransfer,
  archiveExplant,
  type ExplantCounts,
  createExplant,
  explantsFallingDue,
  findExplantsByIdentity,
  getExplant,
  type ExplantRecord,
  getExplants,
  listExplants,
} from './explants.service.js';
