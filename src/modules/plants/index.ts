/* The plants module's face: plants. */
export { plantRecords } from './plants.repository.js';
export {
  archivePlant,
  createPlant,
  findPlantsByIdentity,
  getPlant,
  type PlantRecord,
  getPlants,
  listPlants,
} from './plants.service.js';
