/*
 * The commerce module's face: store order lines. The import writes them through
 * their table gateway (`orderLines`).
 */
export { orderLines } from './commerce.repository.js';
