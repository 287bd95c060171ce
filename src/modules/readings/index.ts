/* The readings module's face: sensor readings as other modules read them (rooms' summaries). */
export {
  latestReadingsOfRoom,
  ROOM_SUMMARY_READINGS,
  type LatestReading,
} from './readings.service.js';
