/*
 * The sops module's face: SOPs and their versions, and the step ids runs refer to.
 * The import writes SOPs through their table gateways.
 */
export { sops, sopVersions, supersedeEffectiveVersions } from './sops.repository.js';
export { checkSopSteps, checkSopVersions, storedSteps } from './sop-rules.js';
export { SOP_FIELDS, sopFields, sopVersionFields, StepId } from './sops.schemas.js';
export {
  findSopVersionConflict,
  findVersionInForce,
  findVersionStep,
  indexSop,
  SOP_LEVELS,
  SOP_LIFECYCLE_STATUSES,
  SOP_STATUSES,
  sopRecords,
  type SopLifecycleStatus,
  type SopStep,
  type SopStepMeasurement,
} from './sops.service.js';
