/*
 * The pricing module's face: exact money amounts, and culture line prices and price
 * events, which the import writes through their table gateways.
 */
export { CURRENCY_PATTERN, DECIMAL_PATTERN, DecimalSum, moneyOf, type Money } from './money.js';
export { cultureLinePrices, priceEvents } from './pricing.repository.js';
export { plantFilter, PRICE_SOURCES, type PriceSource } from './pricing.service.js';
