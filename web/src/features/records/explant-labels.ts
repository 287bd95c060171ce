/**
 * The labels of explants initiated from a plant: `<code>-01`, `<code>-02`, … The code is
 * the plant's own (its external id), else a short form of its name.
 */

/** "Monstera 'Thai Constellation'" -> `MON-TC`: the first word's start, the others' initials. */
export function shortCode(name: string): string {
  const parts = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const [first, ...rest] = parts;
  if (first === undefined) return 'EX';
  const initials = rest
    .map((part) => part[0])
    .join('')
    .slice(0, 3);
  return (initials === '' ? first.slice(0, 3) : `${first.slice(0, 3)}-${initials}`).toUpperCase();
}

/** The code a plant's explants are labelled with unless the person gives another. */
export const plantCode = (plant: { external_id: string | null; name: string }) =>
  plant.external_id?.trim() || shortCode(plant.name);

/** `count` labels from number `from`, in two digits at least (`-01`), more when they need. */
export function numberedLabels(code: string, from: number, count: number): string[] {
  const width = Math.max(2, String(from + count - 1).length);
  return Array.from(
    { length: count },
    (_, i) => `${code}-${String(from + i).padStart(width, '0')}`,
  );
}

/** The number after the highest `<code>-NN` among `labels` (1 when there is none). */
export function nextNumber(code: string, labels: readonly (string | null)[]): number {
  const prefix = `${code.toLowerCase()}-`;
  let highest = 0;
  for (const label of labels) {
    const lower = label?.toLowerCase() ?? '';
    const digits = lower.startsWith(prefix) ? lower.slice(prefix.length) : '';
    if (/^\d{1,6}$/.test(digits)) highest = Math.max(highest, Number(digits));
  }
  return highest + 1;
}
