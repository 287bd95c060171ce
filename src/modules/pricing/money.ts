/**
 * Money on the wire: an exact decimal string and a currency code. It is stored as
 * two text columns (amount, currency), never as a float, and never summed across
 * currencies.
 */
export interface Money {
  amount: string;
  currency: string | null;
}

/** An exact decimal: optional minus, digits, optional fraction. */
export const DECIMAL_PATTERN = '^-?\\d+(\\.\\d+)?$';
/** An ISO 4217 style code: three capital letters. */
export const CURRENCY_PATTERN = '^[A-Z]{3}$';

/** The Money of two stored columns; null when there is no amount. */
export function moneyOf(amount: string | null, currency: string | null): Money | null {
  return amount === null ? null : { amount, currency };
}
