/** The readings module's face: storing readings, as the demo lab does. */
export { ingestReadings } from './readings.service.js';
