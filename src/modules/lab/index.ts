/*
 * The lab module's face: the lab's setup (rooms, stage lists, custom field
 * definitions), the schemas and rules they are written with (by the API and by
 * an import alike). The import matches rooms through their table gateway (`rooms`).
 */
export {
  listAllRooms,
  rooms,
  type CustomFieldDefinitionRow,
  type RoomRow,
} from './lab.repository.js';
export {
  checkCustomFields,
  checkStageList,
  CustomFieldInput,
  customFieldProperties,
  RoomName,
  SNAKE_CASE_PATTERN,
  SnakeCaseKey,
  StageListInput,
  StageOptionInput,
} from './lab.schemas.js';
export {
  createRoom,
  CUSTOM_FIELD_ENTITIES,
  CUSTOM_FIELD_TYPES,
  customFieldDefinitions,
  getRoom,
  hasRoom,
  listRooms,
  requireRoom,
  requireRoomIds,
  saveRoom,
  setCustomFieldDefinitions,
  setStageList,
  stageList,
  stageOptions,
  updateRoom,
  type CustomFieldDefinition,
  type CustomFieldEntity,
  type StageEntity,
  type StageOption,
} from './lab.service.js';
