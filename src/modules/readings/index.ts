/*
 * The readings module's face: what alert rules need of the readings, the latest
 * readings of a room (rooms' summaries), storing readings (the demo lab), the upkeep
 * every server runs (partitions, retention) and a workspace's retention setting (the CLI).
 */
export {
  ingestReadings,
  latestReadingsOfRoom,
  newestReadingAt,
  READING_TYPES,
  ROOM_SUMMARY_READINGS,
  type LatestReading,
  type StoredReadingsHook,
} from './readings.service.js';
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
