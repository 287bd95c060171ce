/*
 * What the record modules (plants, explants, stages, transfers, contaminations)
 * share: the record a request names, external ids, who may change a record,
 * creates and updates tracked in the change history, custom field values and
 * stage keys.
 */
export {
  applyCustomFields,
  customFieldsChange,
  customFieldsOf,
  mergeCustomFields,
  type CustomFieldMap,
  type CustomFieldValue,
} from './custom-fields.js';
export {
  createTracked,
  createTrackedMany,
  initialStageOf,
  pickInitialStage,
  type FirstStage,
  type NewTrackedColumns,
  type OpenStage,
  type OpenStages,
  type TrackedCreateInput,
} from './create.js';
export { externalIds, type ExternalIds } from './external-ids.js';
export { createdByField, trackedEditableFields, trackedRecordFields } from './record-schemas.js';
export { requireMayChange, type OwnershipRefusal } from './ownership.js';
export {
  DEFAULT_PLANT_STAGE_NAMES,
  DEFAULT_STAGE_LISTS,
  installDefaultStageLists,
  replaceStageList,
  resolveStageKey,
  stageKeyOf,
} from './stage-lists.js';
export { targetOf } from './target.js';
export {
  checkTrackedUpdate,
  getTracked,
  getTrackedMany,
  listTracked,
  TRACKED_COLUMNS,
  updateTracked,
  type TrackedKind,
  type TrackedRow,
} from './tracked.js';
export { ArchiveBody, setArchived, type ArchiveInput } from './archive.js';
export {
  CurrentStage,
  currentStageColumns,
  currentStageOf,
  renameCurrentStages,
  setCurrentStage,
  type CurrentStageValue,
} from './current-stage.js';
export {
  applyRecordFilters,
  ARCHIVED_MODES,
  checkRecordFilters,
  countRecordsByRoom,
  hasRecordFilters,
  isPlainList,
  recordListFilters,
  searchTextOf,
  type ArchivedMode,
  type RecordFilters,
} from './record-lists.js';
