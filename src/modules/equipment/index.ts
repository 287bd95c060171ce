/* The equipment module's face: the equipment library and its events. */
export { recordEquipmentEvent, type EquipmentEventInput } from './equipment-events.service.js';
export {
  EQUIPMENT_CATEGORIES,
  EQUIPMENT_STATUSES,
  equipmentIdentities,
  equipmentIdsUsedElsewhere,
  saveEquipment,
  type EquipmentInput,
} from './equipment.service.js';
