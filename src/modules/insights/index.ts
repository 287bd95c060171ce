/* The insights module's face: the explants whose kept handlings must be made anew, and their drain. */
export { explantsChanged } from './dirty.js';
export { drainAll, drainLab } from './drain.js';
export { startInsightsDrain } from './schedule.js';
