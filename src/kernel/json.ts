import { errors } from './errors.js';

/** JSON with object keys sorted at every depth, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      out[key] = sortKeys((value as Record<string, unknown>)[key]);
    }
    return out;
  }
  return value;
}

export function parseJsonObject(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  return value as Record<string, unknown>;
}

export function parseJsonArray(text: string | null): unknown[] {
  if (text === null) return [];
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value : [];
}

/** The most JSON a free-form object (device metadata, an event's payload) may hold, as UTF-8 bytes. */
export const JSON_OBJECT_MAX_BYTES = 10_000;

/** Refuses a free-form JSON object larger than JSON_OBJECT_MAX_BYTES; returns its text. */
export function boundedJson(field: string, value: Record<string, unknown>): string {
  const text = JSON.stringify(value);
  if (Buffer.byteLength(text, 'utf8') > JSON_OBJECT_MAX_BYTES) {
    throw errors.validation(`${field}: must be at most ${JSON_OBJECT_MAX_BYTES} bytes of JSON`);
  }
  return text;
}
