/*
 * The commerce module's face: store order lines. The import writes them through
 * their table gateway (`orderLines`).
 */
export { ORDER_LINE_FACTS, orderLines } from './commerce.repository.js';
