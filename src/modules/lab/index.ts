/*
 * The lab module's face: the lab's setup (rooms, stage lists, custom field
 * definitions). The import matches rooms through their table gateway (`rooms`).
 */
export { rooms, type CustomFieldDefinitionRow, type RoomRow } from './lab.repository.js';
export {
  CUSTOM_FIELD_ENTITIES,
  CUSTOM_FIELD_TYPES,
  customFieldDefinitions,
  getRoom,
  hasRoom,
  listRooms,
  requireRoom,
  saveRoom,
  setCustomFieldDefinitions,
  setStageList,
  stageOptions,
  type CustomFieldDefinition,
  type CustomFieldEntity,
  type StageEntity,
  type StageOption,
} from './lab.service.js';
