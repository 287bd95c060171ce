/** Field changes of a partial update, as a change-history payload records them. */
export type FieldChanges = Record<string, { from: unknown; to: unknown }>;

/** The new values of a set of changes, ready to write. */
export function changedValues(changes: FieldChanges): Record<string, unknown> {
  return Object.fromEntries(Object.entries(changes).map(([field, change]) => [field, change.to]));
}

/**
 * The fields of `input` (sent, i.e. not undefined) whose value differs from `row`;
 * null is a value (it clears). Only `fields` are considered.
 */
export function diffFields<R extends object, K extends keyof R & string>(
  row: R,
  input: Partial<Record<K, unknown>>,
  fields: readonly K[],
): FieldChanges {
  const changes: FieldChanges = {};
  for (const field of fields) {
    const to = input[field];
    if (to === undefined) continue;
    const from = row[field];
    if (from !== to) changes[field] = { from, to };
  }
  return changes;
}
