/* The readings module's face: what alert rules need of the readings. */
export { newestReadingAt, READING_TYPES, type StoredReadingsHook } from './readings.service.js';
