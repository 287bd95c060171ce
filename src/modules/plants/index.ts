/* The plants module's face: plants. */
export { plantRecords } from './plants.repository.js';
export { createPlant, getPlant, listPlants } from './plants.service.js';
