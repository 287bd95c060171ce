/**
 * How many of something each of `keys` has, 0 for those with none: `count` answers
 * the grouped rows of the keys that have some (never called without keys).
 */
export async function countsByKey(
  keys: readonly string[],
  count: (keys: string[]) => Promise<readonly { key: string | null; count: unknown }[]>,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>(keys.map((key) => [key, 0]));
  if (keys.length === 0) return counts;
  for (const row of await count([...keys])) {
    if (row.key !== null) counts.set(row.key, Number(row.count));
  }
  return counts;
}
