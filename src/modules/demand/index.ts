/* The demand module's face: demand signals per genus. */
export { recordDemandSignal } from './demand.service.js';
