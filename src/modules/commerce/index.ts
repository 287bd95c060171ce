/* The commerce module's face: store order lines, as an import loads them. */
export {
  orderLineIdentities,
  orderLineIdsUsedElsewhere,
  saveOrderLine,
  type OrderLineInput,
} from './commerce.service.js';
