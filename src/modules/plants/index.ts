/* The plants module's face: plants. */
export { listPlantIdentities, plantRecords, type PlantIdentity } from './plants.repository.js';
export { CreatePlantBody, PLANT_STATUSES, UpdatePlantBody } from './plants.schemas.js';
export {
  archivePlant,
  createPlant,
  findPlantsByIdentity,
  checkPlantUpdate,
  checkNewPlant,
  createPlants,
  getPlant,
  newPlantSetup,
  type NewPlantSetup,
  updatePlant,
  type PlantRecord,
  getPlants,
  listPlants,
} from './plants.service.js';
