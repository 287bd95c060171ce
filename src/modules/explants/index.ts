/* The explants module's face: explants, and what a transfer changes of one. */
export { explantRecords } from './explants.repository.js';
export {
  CreateExplantBody,
  ENDED_EXPLANT_STATUSES,
  Explant,
  EXPLANT_STATUSES,
  UpdateExplantBody,
} from './explants.schemas.js';
export {
  addExplantParents,
  applyExplantTransfer,
  type ExplantFamilyRow,
  archiveExplant,
  type ExplantCounts,
  createExplant,
  explantsFallingDue,
  findExplantIdentities,
  findExplantsByIdentity,
  type ExplantIdentity,
  checkExplantUpdate,
  checkNewExplant,
  createExplants,
  getExplant,
  newExplantSetup,
  type NewExplantSetup,
  updateExplant,
  type ExplantRecord,
  getExplants,
  listExplants,
} from './explants.service.js';
