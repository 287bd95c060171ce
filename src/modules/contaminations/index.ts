/* The contaminations module's face: contamination logs of plants and explants. */
export { contaminationRecords } from './contaminations.repository.js';
export { createContamination, resolveContamination } from './contaminations.service.js';
