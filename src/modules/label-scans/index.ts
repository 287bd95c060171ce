/* The label-scans module's face: scans of labels. */
export { recordLabelScan } from './label-scans.service.js';
