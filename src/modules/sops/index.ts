/* The sops module's face: SOPs and their versions, and the step ids runs refer to. */
export { StepId } from './sops.schemas.js';
export {
  findSopVersionConflict,
  findVersionInForce,
  saveSop,
  SOP_LEVELS,
  SOP_LIFECYCLE_STATUSES,
  SOP_STATUSES,
  sopIdentities,
  sopIdsUsedElsewhere,
  sopRecords,
  sopVersionIdentities,
  type SopInput,
} from './sops.service.js';
