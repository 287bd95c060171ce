import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { errors } from '../errors.js';
import { canonicalJson } from '../json.js';

/**
 * A PATCH may send back the record it read (`id`, `created_at`, `workspace_id`…):
 * clients written against the product's reference do. The fields of the record
 * that the body does not take are taken out before validation, and then compared
 * with the record as it stands: the same value is accepted and ignored, another
 * is refused (422), so a change a PATCH cannot make is never dropped silently.
 * `updated_at` is left out of the comparison: a record read a moment ago may
 * have been updated since. Any field that is not the record's is still refused.
 */

/** The top-level field names of an object schema (none for any other schema). */
const fieldsOf = (schema: unknown): string[] =>
  Object.keys((schema as { properties?: Record<string, unknown> } | null)?.properties ?? {});

const NEVER_COMPARED: ReadonlySet<string> = new Set(['updated_at', 'updatedAt']);

const sentBack = new WeakMap<FastifyRequest, Record<string, unknown>>();

/** Takes the record's read-only fields out of the body, kept for `checkSentBack`. */
export function readOnlyFieldsHook(
  body: unknown,
  record: unknown,
): preValidationAsyncHookHandler | null {
  const writable = new Set(fieldsOf(body));
  const readOnly = fieldsOf(record).filter((field) => !writable.has(field));
  if (readOnly.length === 0) return null;
  return async (req) => {
    const sent = req.body;
    if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return;
    const fields = sent as Record<string, unknown>;
    const kept: Record<string, unknown> = {};
    for (const field of readOnly) {
      if (!(field in fields)) continue;
      kept[field] = fields[field];
      delete fields[field];
    }
    if (Object.keys(kept).length > 0) sentBack.set(req, kept);
  };
}

/** Refuses (422) a read-only field sent with a value other than the record's. */
export async function checkSentBack(
  req: FastifyRequest,
  current: () => Promise<unknown>,
): Promise<void> {
  const kept = sentBack.get(req);
  if (kept === undefined) return;
  const record = (await current()) as Record<string, unknown>;
  for (const [field, value] of Object.entries(kept)) {
    if (NEVER_COMPARED.has(field)) continue;
    if (canonicalJson(value) !== canonicalJson(record[field] ?? null)) {
      throw errors.validation(
        `${field}: cannot be changed here; send it as read (${canonicalJson(record[field] ?? null)}) or leave it out`,
      );
    }
  }
}
