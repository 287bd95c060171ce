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

const DECIMAL = new RegExp(DECIMAL_PATTERN);

/** The Money of two stored columns; null when there is no amount. */
export function moneyOf(amount: string | null, currency: string | null): Money | null {
  return amount === null ? null : { amount, currency };
}

/** A decimal as an integer count of 10^-scale: "18.50" is 1850 at scale 2. */
export interface ExactDecimal {
  readonly units: bigint;
  readonly scale: number;
}

export function parseDecimal(text: string): ExactDecimal {
  if (!DECIMAL.test(text)) throw new Error(`not an exact decimal: ${JSON.stringify(text)}`);
  const point = text.indexOf('.');
  const fraction = point === -1 ? '' : text.slice(point + 1);
  const whole = point === -1 ? text : text.slice(0, point);
  return { units: BigInt(`${whole}${fraction}`), scale: fraction.length };
}

/** Decimal text of `value`, with exactly `value.scale` digits after the point. */
export function formatDecimal(value: ExactDecimal): string {
  const negative = value.units < 0n;
  const digits = (negative ? -value.units : value.units).toString().padStart(value.scale + 1, '0');
  const point = digits.length - value.scale;
  const text = value.scale === 0 ? digits : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${text}` : text;
}

/**
 * A running exact sum of `amount × quantity` in one currency: integer arithmetic
 * on the decimal strings (BigInt), at the largest scale seen, so no amount is ever
 * rounded. A sum of nothing is "0".
 */
export class DecimalSum {
  #units = 0n;
  #scale = 0;

  add(amount: string, quantity: number | bigint = 1n): void {
    const term = parseDecimal(amount);
    if (term.scale > this.#scale) {
      this.#units *= 10n ** BigInt(term.scale - this.#scale);
      this.#scale = term.scale;
    }
    this.#units += term.units * 10n ** BigInt(this.#scale - term.scale) * BigInt(quantity);
  }

  get total(): string {
    return formatDecimal({ units: this.#units, scale: this.#scale });
  }
}
