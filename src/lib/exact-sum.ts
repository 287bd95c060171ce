/**
 * Exact sums of reading values, so that a summary's `avg` does not depend on the
 * order readings arrived in, nor on how they were rolled up.
 *
 * A value counts as the decimal JSON shows for it: the shortest decimal that reads
 * back as the same double (`21.3`, not the binary fraction 21.300000000000000710…),
 * which is what JavaScript's `String(value)` and PostgreSQL's `float8` output both
 * give. Sums of those decimals are exact (integers of 10^-scale, BigInt); stored as
 * decimal text (a `numeric` on PostgreSQL, text on SQLite). `avg` is the exact sum
 * divided by the count, rounded once to the nearest double (ties to even).
 */

/** A decimal as an integer count of 10^-scale: 21.3 is 213 at scale 1. */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

const ZERO: Decimal = { units: 0n, scale: 0 };
const TENS: bigint[] = [1n];

function tenTo(power: number): bigint {
  while (TENS.length <= power) TENS.push(TENS[TENS.length - 1]! * 10n);
  return TENS[power]!;
}

/**
 * A decimal text: `-12.5`, `0.001`, `1e-7`, `1.5E+21` (JavaScript, PostgreSQL and
 * SQLite spellings alike). Throws on anything else: a stored sum is never guessed at.
 */
export function parseDecimal(text: string): Decimal {
  const match = /^(-?)(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (match === null) throw new Error(`not a decimal: ${JSON.stringify(text)}`);
  const fraction = match[3] ?? '';
  const exponent = match[4] === undefined ? 0 : Number(match[4]);
  let units = BigInt(`${match[2]}${fraction}`);
  let scale = fraction.length - exponent;
  if (scale < 0) {
    units *= tenTo(-scale);
    scale = 0;
  }
  return { units: match[1] === '-' ? -units : units, scale };
}

/** A finite double as the shortest decimal that reads back as it. */
export function decimalOfValue(value: number): Decimal {
  return parseDecimal(String(value));
}

/** Decimal text with no exponent and no trailing zeros after the point: `-12.5`, `0`. */
export function formatDecimal(value: Decimal): string {
  let { units, scale } = value;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const point = digits.length - scale;
  const text = scale === 0 ? digits : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${text}` : text;
}

export function addDecimals(a: Decimal, b: Decimal): Decimal {
  if (a.scale === b.scale) return { units: a.units + b.units, scale: a.scale };
  if (a.scale > b.scale)
    return { units: a.units + b.units * tenTo(a.scale - b.scale), scale: a.scale };
  return { units: a.units * tenTo(b.scale - a.scale) + b.units, scale: b.scale };
}

/** The sum of decimal texts (SQLite's rollup upsert and summary use it). */
export function addDecimalTexts(a: string, b: string): string {
  return formatDecimal(addDecimals(parseDecimal(a), parseDecimal(b)));
}

const POWERS = Array.from({ length: 16 }, (_, k) => 10 ** k);
/** Below 2^52 a double's spacing is under 10^-k at the scale tried: one k-place decimal fits. */
const FAST_LIMIT = 2 ** 52;

/**
 * A running exact sum of doubles. A value that is a decimal of at most 6 places
 * (what sensors send) is found without writing it out: `m = round(v × 10^k)` for
 * the smallest such k, if m / 10^k reads back as v and |m| < 2^52 (then m × 10^-k
 * is the only k-place decimal that reads back as v, so it is the value's shortest
 * decimal). Those are summed as integers in a double while that stays exact; any
 * other value, or a sum growing past 2^53, goes through its text and BigInt.
 */
export class ExactSum {
  #exact: Decimal = ZERO;
  /** The fast part: an integer count of 10^-#scale, exact while |#small| < 2^53. */
  #small = 0;
  #scale = 0;

  add(value: number): void {
    for (let k = 0; k <= 6; k++) {
      const units = Math.round(value * POWERS[k]!);
      if (Math.abs(units) >= FAST_LIMIT) break;
      if (units / POWERS[k]! !== value) continue;
      if (k > this.#scale) this.#rescale(k);
      const scaled = units * POWERS[this.#scale - k]!;
      const next = this.#small + scaled;
      if (Number.isSafeInteger(scaled) && Number.isSafeInteger(next)) {
        this.#small = next;
        return;
      }
      break;
    }
    this.#exact = addDecimals(this.#exact, decimalOfValue(value));
  }

  /** Moves the fast part to a finer scale, or into the exact part when that is not exact. */
  #rescale(scale: number): void {
    const moved = this.#small * POWERS[scale - this.#scale]!;
    if (Number.isSafeInteger(moved)) {
      this.#small = moved;
    } else {
      this.#exact = addDecimals(this.#exact, { units: BigInt(this.#small), scale: this.#scale });
      this.#small = 0;
    }
    this.#scale = scale;
  }

  get decimal(): Decimal {
    return addDecimals(this.#exact, { units: BigInt(this.#small), scale: this.#scale });
  }

  get text(): string {
    return formatDecimal(this.decimal);
  }
}

function bitLength(n: bigint): number {
  return n === 0n
    ? 0
    : n.toString(16).length * 4 - Math.clz32(Number(`0x${n.toString(16)[0]}`)) + 28;
}

/**
 * `numerator / denominator` (denominator > 0) rounded to the nearest double, ties to
 * even: one rounding of the exact quotient, subnormal results included.
 */
export function roundedQuotient(numerator: bigint, denominator: bigint): number {
  if (denominator <= 0n) throw new Error('the denominator must be positive');
  if (numerator === 0n) return 0;
  const negative = numerator < 0n;
  const n = negative ? -numerator : numerator;
  // e = floor(log2(n / denominator)).
  let e = bitLength(n) - bitLength(denominator);
  if (e >= 0 ? n < denominator << BigInt(e) : n << BigInt(-e) < denominator) e -= 1;
  // The last place kept: 53 significant bits, fewer below the normal range.
  const ulp = Math.max(e - 52, -1074);
  const a = ulp < 0 ? n << BigInt(-ulp) : n;
  const b = ulp > 0 ? denominator << BigInt(ulp) : denominator;
  let m = a / b;
  const twice = (a % b) * 2n;
  if (twice > b || (twice === b && (m & 1n) === 1n)) m += 1n;
  // m ≤ 2^53 and 2^ulp is a double (ulp ≥ -1074), so the product is exact.
  const magnitude = Number(m) * 2 ** ulp;
  return negative ? -magnitude : magnitude;
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The mean of values whose exact sum is `sum`, rounded once to the nearest double. */
export function meanOf(sum: Decimal, count: number): number {
  // Both terms exact doubles: IEEE division rounds the exact quotient once, to
  // nearest, ties to even, which is roundedQuotient's answer without BigInt work.
  const denominator = count * (POWERS[sum.scale] ?? Infinity);
  if (Number.isSafeInteger(denominator) && sum.units <= SAFE && sum.units >= -SAFE) {
    return Number(sum.units) / denominator;
  }
  return roundedQuotient(sum.units, BigInt(count) * tenTo(sum.scale));
}
