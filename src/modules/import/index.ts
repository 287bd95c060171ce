/* The import module's face: loading a lab's setup from one import file. */
export { applyImport, importLabData, parseImportFile } from './import.service.js';
