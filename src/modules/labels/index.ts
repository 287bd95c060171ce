/*
 * The labels module's face: imported labels. The import writes them through their
 * table gateway and the contents' own queries.
 */
export {
  findLabelByBarcode,
  labels,
  listLabelContents,
  replaceLabelContents,
} from './labels.repository.js';
export {
  LABEL_CONTENT_TYPES,
  LABEL_RECORD_TYPES,
  type LabelContentType,
  type LabelRecordType,
} from './labels.service.js';
