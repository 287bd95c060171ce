import type { SearchKind } from './search.schemas.js';

/** What the search finds of one record, as its module describes it. */
export interface SearchDocument {
  readonly kind: SearchKind;
  readonly id: string;
  readonly workspaceId: string;
  readonly title: string;
  readonly subtitle: string | null;
  /** The record's names: what ranks a record first when a search names it. */
  readonly names: readonly (string | null | undefined)[];
  /** Its other searched fields. */
  readonly fields: readonly (string | null | undefined)[];
  /** A record whose names are searched with this one's (an explant's plant). */
  readonly parentId?: string | null;
  readonly archived: boolean;
}

/**
 * Words of letters and digits, lower case, accents and other marks removed, one
 * space between: the form documents and queries take (both engines then split
 * them alike: `MON-0042` is `mon 0042`).
 */
export function normaliseSearchText(values: readonly (string | null | undefined)[]): string {
  return values
    .filter((value): value is string => typeof value === 'string' && value !== '')
    .join(' ')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
    .join(' ');
}

/** Parts that are set, joined for a subtitle; null when none is. */
export function subtitleOf(values: readonly (string | null | undefined)[]): string | null {
  const parts = values.filter((v): v is string => typeof v === 'string' && v !== '');
  return parts.length === 0 ? null : parts.join(' · ');
}

/** The words of a query (at most 8), normalised as documents are. */
export function queryWords(q: string): string[] {
  const text = normaliseSearchText([q]);
  return text === '' ? [] : text.split(' ').slice(0, 8);
}
