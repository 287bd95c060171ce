import { errors } from '../../kernel/errors.js';
import { parseJsonArray, parseJsonObject } from '../../kernel/json.js';
import { parseDateOnly } from '../../kernel/time.js';
import type { Db } from '../../db/database.js';
import {
  customFieldDefinitions,
  type CustomFieldDefinitionRow,
  type CustomFieldEntity,
} from '../lab/index.js';

export type CustomFieldValue = string | number | boolean | null;
export type CustomFieldMap = Record<string, string | number | boolean>;

export const CUSTOM_FIELDS_MAX_BYTES = 10_000;

/** Stored custom fields (JSON text) as a map; most records have none. */
export function customFieldsOf(stored: string): CustomFieldMap {
  return stored === '{}' ? {} : (parseJsonObject(stored) as CustomFieldMap);
}

function checkValue(definition: CustomFieldDefinitionRow, value: string | number | boolean): void {
  const where = `custom_fields.${definition.key}`;
  switch (definition.type) {
    case 'text':
      if (typeof value !== 'string') throw errors.validation(`${where}: must be text`);
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw errors.validation(`${where}: must be a number`);
      }
      return;
    case 'boolean':
      if (typeof value !== 'boolean') throw errors.validation(`${where}: must be true or false`);
      return;
    case 'date':
      if (typeof value !== 'string' || parseDateOnly(value) === null) {
        throw errors.validation(`${where}: must be a date (YYYY-MM-DD)`);
      }
      return;
    case 'select': {
      const options = parseJsonArray(definition.options).map(String);
      if (typeof value !== 'string' || !options.includes(value)) {
        throw errors.validation(`${where}: must be one of: ${options.join(', ')}`);
      }
      return;
    }
    default:
      throw errors.validation(`${where}: has an unsupported field type`);
  }
}

/**
 * Applies `input` onto `current` per key (null clears a key) after checking every
 * key is lab-defined and every value fits its type; the result is at most 10,000 bytes.
 */
export function mergeCustomFields(
  definitions: readonly CustomFieldDefinitionRow[],
  entity: CustomFieldEntity,
  current: CustomFieldMap,
  input: Record<string, CustomFieldValue> | null | undefined,
): CustomFieldMap {
  if (input === undefined || input === null) return { ...current };
  const byKey = new Map(definitions.map((d) => [d.key, d]));
  const merged: CustomFieldMap = { ...current };
  for (const [key, value] of Object.entries(input)) {
    const definition = byKey.get(key);
    if (definition === undefined) {
      throw errors.validation(
        `custom_fields.${key}: not a custom field defined for ${entity}s in this lab`,
      );
    }
    if (value === null) {
      delete merged[key];
      continue;
    }
    checkValue(definition, value);
    merged[key] = value;
  }
  if (Buffer.byteLength(JSON.stringify(merged)) > CUSTOM_FIELDS_MAX_BYTES) {
    throw errors.validation(
      `custom_fields: must be at most ${CUSTOM_FIELDS_MAX_BYTES} bytes in all`,
    );
  }
  return merged;
}

/**
 * What a PATCH does to stored custom fields (JSON text): null when nothing
 * changes, else the old and new maps after the lab's checks.
 */
export async function customFieldsChange(
  db: Db,
  workspaceId: string,
  entity: CustomFieldEntity,
  stored: string,
  input: Record<string, CustomFieldValue> | null | undefined,
): Promise<{ from: CustomFieldMap; to: CustomFieldMap } | null> {
  const from = parseJsonObject(stored) as CustomFieldMap;
  const to = await applyCustomFields(db, workspaceId, entity, from, input);
  return JSON.stringify(to) === JSON.stringify(from) ? null : { from, to };
}

export async function applyCustomFields(
  db: Db,
  workspaceId: string,
  entity: CustomFieldEntity,
  current: CustomFieldMap,
  input: Record<string, CustomFieldValue> | null | undefined,
): Promise<CustomFieldMap> {
  if (input === undefined || input === null) return { ...current };
  const definitions = await customFieldDefinitions(db, workspaceId, entity);
  return mergeCustomFields(definitions, entity, current, input);
}
