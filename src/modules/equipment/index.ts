/*
 * The equipment module's face: the equipment library and its events. The import
 * writes the library through its table gateway (`equipment`).
 */
export { recordEquipmentEvent, type EquipmentEventInput } from './equipment-events.service.js';
export { equipment, equipmentEvents } from './equipment.repository.js';
export {
  EQUIPMENT_CATEGORIES,
  EQUIPMENT_STATUSES,
  newEquipmentRow,
  type EquipmentLibraryFields,
} from './equipment.service.js';
export { equipmentFields } from './equipment.schemas.js';
