/** z of a two-sided 95 % interval: the 97.5th percentile of the standard normal. */
const Z95 = 1.959963984540054;

/**
 * The Wilson score interval (95 %, no continuity correction) of a proportion of
 * `successes` in `trials`: unlike p ± z·se it stays within [0, 1] and is not empty at
 * 0 or n. Null for no trials.
 */
export function wilsonInterval(
  successes: number,
  trials: number,
): { low: number; high: number } | null {
  if (trials <= 0) return null;
  const p = successes / trials;
  const z2 = Z95 * Z95;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (Z95 * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
