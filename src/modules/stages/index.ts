/* The stages module's face: stage history of plants and explants. */
export { advanceStage, openFirstStages, openInitialStage, stageAt } from './stages.service.js';
