/* The lab module's face: the lab's setup (rooms, stage lists, custom field definitions). */
export type { CustomFieldDefinitionRow, RoomRow } from './lab.repository.js';
export {
  CUSTOM_FIELD_ENTITIES,
  CUSTOM_FIELD_TYPES,
  customFieldDefinitions,
  getRoom,
  hasRoom,
  listRooms,
  requireRoom,
  roomIdentities,
  roomIdsHeldElsewhere,
  saveRoom,
  setCustomFieldDefinitions,
  setStageList,
  stageOptions,
  type CustomFieldDefinition,
  type CustomFieldEntity,
  type StageEntity,
  type StageOption,
} from './lab.service.js';
