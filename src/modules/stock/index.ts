/* The stock module's face: stock items, their lots, and taking amounts from lots. */
export { takeFromLots, type StockUse } from './consume.js';
export { expireStockLots } from './expiry.js';
