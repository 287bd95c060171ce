/**
 * `make`'s answers kept by key, for values that never change for their key (an
 * event's webhook body, a secret's decoded key): each is made once while kept. At
 * most `limit` are kept; the oldest made is let go first. `keyOf` names an
 * argument's key (by default the argument itself).
 */
export function memo<A, V>(
  limit: number,
  make: (arg: A) => V,
  keyOf: (arg: A) => unknown = (arg) => arg,
): (arg: A) => V {
  const kept = new Map<unknown, V>();
  return (arg) => {
    const key = keyOf(arg);
    if (kept.has(key)) return kept.get(key) as V;
    const value = make(arg);
    if (kept.size >= limit) kept.delete(kept.keys().next().value);
    kept.set(key, value);
    return value;
  };
}
