/* The labels module's face: imported labels, as an import loads them. */
export {
  LABEL_CONTENT_TYPES,
  LABEL_RECORD_TYPES,
  saveLabel,
  type LabelInput,
} from './labels.service.js';
