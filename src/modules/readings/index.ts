/* The readings module's face: what alert rules need of the readings, and sensor readings as other modules read them (rooms' summaries). */
export {
  latestReadingsOfRoom,
  newestReadingAt,
  READING_TYPES,
  ROOM_SUMMARY_READINGS,
  type LatestReading,
  type StoredReadingsHook,
} from './readings.service.js';
