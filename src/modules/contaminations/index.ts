/* The contaminations module's face: contamination logs of plants and explants. */
export { contaminationRecords } from './contaminations.repository.js';
export { createContamination } from './contaminations.service.js';
