/* The pricing module's face: exact money amounts, culture line prices and price events. */
export { CURRENCY_PATTERN, DECIMAL_PATTERN, DecimalSum, moneyOf, type Money } from './money.js';
export {
  cultureLinePriceIdentities,
  cultureLinePriceIdsUsedElsewhere,
  plantFilter,
  PRICE_SOURCES,
  priceEventIdentities,
  priceEventIdsUsedElsewhere,
  saveCultureLinePrice,
  savePriceEvent,
  type CultureLinePriceInput,
  type PriceEventInput,
} from './pricing.service.js';
