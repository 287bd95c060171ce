/** The lab settings' small rules, apart from their screens (and tested apart). */

/** `Fresh shoots` → `fresh_shoots`: the snake_case key the API takes, made from a name. */
export function keyOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^(\d)/, 's_$1');
}

/** A list with the item at `index` moved one place by `by` (-1 up, +1 down). */
export function moved<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}
