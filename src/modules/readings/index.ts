/*
 * The readings module's face: the upkeep every server runs (partitions, retention),
 * and a workspace's retention setting (the CLI).
 */
export {
  startReadingsMaintenance,
  type MaintenanceRun,
  type ReadingsMaintenance,
} from './maintenance.js';
export {
  parseRetentionSetting,
  readingsRetentionOf,
  setReadingsRetention,
  type RetentionSetting,
  type RetentionState,
} from './retention.service.js';
