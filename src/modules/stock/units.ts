import type * as MathJs from 'mathjs';
import { errors } from '../../kernel/errors.js';

type MathUnits = typeof MathJs;

let loaded: Promise<MathUnits> | null = null;

/** mathjs is large: loaded the first time a unit is converted, not with the server. */
const mathjs = () => (loaded ??= import('mathjs'));

/** Twelve significant digits: 0.1 g + 0.2 g is 0.3 g, not 0.30000000000000004. */
export const tidy = (value: number) => Number(value.toPrecision(12)) + 0;

/**
 * `amount` of `from` in `to`, converted by mathjs's units (g ↔ mg, L ↔ mL, …); the
 * same name on both sides is no conversion (a count such as `each` or `vessel`).
 * Units of different kinds, or a name mathjs does not know, are a 422 naming `field`.
 */
export async function convert(
  amount: number,
  from: string,
  to: string,
  field: string,
): Promise<number> {
  if (from === to) return amount;
  const { unit } = await mathjs();
  try {
    return tidy(unit(amount, from).toNumber(to));
  } catch {
    throw errors.validation(
      `${field}: "${from}" cannot be converted to "${to}" (units of different kinds, or a unit not known)`,
    );
  }
}
