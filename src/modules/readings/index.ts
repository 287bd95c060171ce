/*
 * The readings module's face: what alert rules need of the readings, the latest
 * readings of a room (rooms' summaries), and storing readings (the demo lab).
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
