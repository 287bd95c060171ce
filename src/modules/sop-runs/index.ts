/* The sop-runs module's face: runs of SOPs and their step evidence. */
export {
  completeSopRun,
  recordStepEvent,
  recordStepMeasurement,
  sopRunRecords,
  startSopRun,
} from './sop-runs.service.js';
