/* The plants module's face: plants. */
export { plantRecords } from './plants.repository.js';
export {
  archivePlant,
  createPlant,
  findPlantByIdentity,
  getPlant,
  listPlants,
} from './plants.service.js';
