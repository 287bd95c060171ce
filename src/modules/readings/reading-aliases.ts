import { READING_TYPES } from './readings.schemas.js';

/**
 * What devices written against older versions of the wire format send, read as
 * the API's own fields: `timestamp` for `recorded_at`, and type names outside
 * the list (`light_lux` for `light`; any other is `other`, the name kept in the
 * reading's notes). Firmware in the field cannot be changed, so these are
 * accepted rather than refused.
 */
const KNOWN: ReadonlySet<string> = new Set(READING_TYPES);

/** Older names of the API's types. */
const OLDER_NAMES: Readonly<Record<string, (typeof READING_TYPES)[number]>> = {
  light_lux: 'light',
};

const NOTES_MAX = 500;

/** The type a reading is stored under, and the name it was sent as when that is not kept. */
export function readingTypeOf(sent: string): {
  type: (typeof READING_TYPES)[number];
  keptName: string | null;
} {
  const lower = sent.toLowerCase();
  if (KNOWN.has(lower)) return { type: lower as (typeof READING_TYPES)[number], keptName: null };
  const older = OLDER_NAMES[lower];
  if (older !== undefined) return { type: older, keptName: null };
  return { type: 'other', keptName: sent };
}

/** Notes that keep the type name a reading was sent as, within the notes' length. */
export function notesKeeping(keptName: string | null, notes: string | null): string | null {
  if (keptName === null) return notes;
  const kept = `type sent: ${keptName}`;
  return (notes === null ? kept : `${kept}; ${notes}`).slice(0, NOTES_MAX);
}
