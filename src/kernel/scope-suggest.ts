import { SCOPES, type Scope } from './access.js';

/** Edits (insert, delete, substitute, swap two neighbours) turning `a` into `b`. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i, ...new Array<number>(b.length).fill(0)]);
  }
  for (let j = 0; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i]!;
    const above = rows[i - 1]!;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      }
      row[j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The spellings people reach for: any case, `_`/`-`/`.`/space for `:`, `plants:write`. */
function spellings(text: string): string[] {
  const lower = text.trim().toLowerCase().replace(/\s+/g, '');
  const colon = lower.includes(':') ? lower : lower.replace(/^(read|write)[-_.]/, '$1:');
  const [left, right] = colon.split(':');
  const swapped =
    right !== undefined && (right === 'read' || right === 'write') ? [`${right}:${left}`] : [];
  return [colon, ...swapped];
}

/**
 * The valid scopes nearest to an unknown one, for "did you mean …?": the closest
 * by edit distance when close enough (a typo, a missing "s", a swapped order),
 * or both scopes of a resource named without read/write. Empty when nothing is close.
 */
export function nearestScopes(unknown: string): Scope[] {
  const forms = spellings(unknown);
  const bare = forms[0]!;
  if (!bare.includes(':')) {
    const byResource = SCOPES.filter((scope) => {
      const resource = scope.slice(scope.indexOf(':') + 1);
      return editDistance(bare, resource) <= (resource.length > 5 ? 1 : 0);
    });
    if (byResource.length > 0) return byResource;
  }
  let best: Scope[] = [];
  let bestDistance = Infinity;
  for (const scope of SCOPES) {
    const distance = Math.min(...forms.map((form) => editDistance(form, scope)));
    if (distance > Math.max(2, Math.floor(scope.length / 4))) continue;
    if (distance < bestDistance) {
      best = [scope];
      bestDistance = distance;
    } else if (distance === bestDistance) {
      best.push(scope);
    }
  }
  return best;
}

/** `read:plant` -> `read:plant (did you mean read:plants?)`; unchanged when nothing is near. */
export function withSuggestion(unknown: string): string {
  const near = nearestScopes(unknown);
  return near.length === 0 ? unknown : `${unknown} (did you mean ${near.join(' or ')}?)`;
}
