/* The explants module's face: explants, and what a transfer changes of one. */
export { explantRecords } from './explants.repository.js';
export { Explant, EXPLANT_STATUSES, ENDED_EXPLANT_STATUSES } from './explants.schemas.js';
export {
  addExplantParents,
  applyExplantTransfer,
  type ExplantFamilyRow,
  archiveExplant,
  type ExplantCounts,
  createExplant,
  findExplantsByIdentity,
  getExplant,
  type ExplantRecord,
  getExplants,
  listExplants,
} from './explants.service.js';
