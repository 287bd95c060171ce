import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { parseJsonArray } from '../../kernel/json.js';
import { listAllCustomFieldDefinitions } from './lab.repository.js';
import {
  checkCustomFields,
  CUSTOM_FIELD_ENTITIES,
  type CustomFieldEntity,
  type CustomFieldLists,
  type UpdateCustomFieldsBody,
} from './lab.schemas.js';
import { setCustomFieldDefinitions } from './lab.service.js';

export type CustomFieldListsRecord = Static<typeof CustomFieldLists>;

/** GET /custom-fields: the lab's definitions of each kind of record, in order. */
export async function customFieldLists(
  db: Db,
  workspaceId: string,
): Promise<CustomFieldListsRecord> {
  const lists = Object.fromEntries(
    CUSTOM_FIELD_ENTITIES.map((entity) => [entity, []]),
  ) as unknown as CustomFieldListsRecord;
  for (const row of await listAllCustomFieldDefinitions(db, workspaceId)) {
    lists[row.entity_type as CustomFieldEntity]?.push({
      key: row.key,
      type: row.type,
      options: row.options === null ? null : parseJsonArray(row.options).map(String),
    });
  }
  return lists;
}

/**
 * PATCH /custom-fields: the definitions of each kind sent are replaced (those of
 * kinds not sent stay), with the import file's rules. Values records already hold
 * are kept as they are; new values are checked against the new definitions.
 */
export async function updateCustomFields(
  trx: Trx,
  workspaceId: string,
  input: Static<typeof UpdateCustomFieldsBody>,
): Promise<CustomFieldListsRecord> {
  const entities = CUSTOM_FIELD_ENTITIES.filter((entity) => input[entity] !== undefined);
  for (const entity of entities) checkCustomFields(input[entity]!, (i) => `${entity}[${i}]`);
  await setCustomFieldDefinitions(
    trx,
    workspaceId,
    entities.flatMap((entity) =>
      input[entity]!.map((field) => ({
        entity,
        key: field.key,
        type: field.type,
        options: field.options ?? null,
      })),
    ),
    entities,
  );
  return customFieldLists(trx, workspaceId);
}
