import Type, { type Static, type TSchema } from 'typebox';
import { Closed, Nullable, StringEnum, Text } from '../../kernel/schemas.js';
import { errors } from '../../kernel/errors.js';
import { refuseDuplicate } from '../../kernel/validation.js';

/*
 * The lab's setup as it is written, by an import file and by the API alike (one
 * schema, one set of rules): stage lists, custom field definitions and rooms.
 * Every object is closed: an unknown key is an error, never ignored.
 */

export const SNAKE_CASE_PATTERN = '^[a-z][a-z0-9]*(_[a-z0-9]+)*$';
export const SnakeCaseKey = (max: number) =>
  Type.String({
    maxLength: max,
    pattern: SNAKE_CASE_PATTERN,
    description: 'snake_case (lower-case letters and digits joined by single underscores)',
  });

export const CUSTOM_FIELD_ENTITIES = ['plant', 'explant', 'transfer', 'contamination'] as const;
export type CustomFieldEntity = (typeof CUSTOM_FIELD_ENTITIES)[number];
export const CUSTOM_FIELD_TYPES = ['text', 'number', 'boolean', 'date', 'select'] as const;

/** One stage of a list as written: its key and display name. */
export const StageOptionInput = Closed({
  key: SnakeCaseKey(50),
  name: Text(100),
});

/** A stage list as written: the stages records may enter, in display order. */
export const StageListInput = Type.Array(StageOptionInput, {
  minItems: 1,
  maxItems: 100,
  description:
    'The stages records may enter, in display order (1 to 100). A stored stage left out that ' +
    'records were ever in is kept as retired; one never used is removed.',
});

/** A custom field definition of one kind of record, as written. */
export const customFieldProperties = {
  key: SnakeCaseKey(60),
  type: StringEnum(CUSTOM_FIELD_TYPES),
  options: Type.Optional(
    Nullable(
      Type.Array(Text(100), {
        minItems: 1,
        maxItems: 200,
        uniqueItems: true,
        description: 'The choices of a select field (required for select, refused otherwise)',
      }),
    ),
  ),
};

export const CustomFieldInput = Closed(customFieldProperties);

/** A room as written: its name (what imports match rooms on). */
export const RoomName = () => Text(200);

/** A stage list: each key once. */
export function checkStageList(
  list: readonly { key: string; name: string }[],
  path: (index: number) => string,
): void {
  refuseDuplicate(
    list,
    (i) => `${path(i)}.key`,
    (s) => s.key,
  );
}

/** Custom fields of a kind: keys unique within it; options for select fields and only them. */
export function checkCustomFields(
  fields: readonly {
    key: string;
    type: string;
    options?: readonly string[] | null;
    entity?: string;
  }[],
  path: (index: number) => string,
): void {
  refuseDuplicate(
    fields,
    (i) => `${path(i)}.key`,
    (f) => `${f.entity ?? ''}\u0000${f.key}`,
  );
  for (const [i, field] of fields.entries()) {
    const hasOptions = field.options !== undefined && field.options !== null;
    if (field.type === 'select' && !hasOptions) {
      throw errors.validation(`${path(i)}.options: required for a select field`);
    }
    if (field.type !== 'select' && hasOptions) {
      throw errors.validation(`${path(i)}.options: only a select field has options`);
    }
  }
}

export type StageOptionInputValue = Static<typeof StageOptionInput>;

/** A custom field definition as the API answers it. */
const CustomFieldDefinitionRecord = Type.Object({
  key: Type.String(),
  type: Type.String({ description: CUSTOM_FIELD_TYPES.join(', ') }),
  options: Nullable(Type.Array(Type.String(), { description: 'The choices of a select field' })),
});

const perEntity = <T extends TSchema>(item: T) =>
  Object.fromEntries(CUSTOM_FIELD_ENTITIES.map((entity) => [entity, item])) as Record<
    CustomFieldEntity,
    T
  >;

/** The lab's custom fields of each kind of record, in order. */
export const CustomFieldLists = Type.Object(
  perEntity(Type.Array(CustomFieldDefinitionRecord, { maxItems: 1000 })),
  { $id: 'CustomFieldLists' },
);

/** PATCH /custom-fields: each kind sent replaces its definitions (the import's rules). */
export const UpdateCustomFieldsBody = Type.Object(
  perEntity(Type.Optional(Type.Array(CustomFieldInput, { maxItems: 1000 }))),
  { additionalProperties: false, minProperties: 1 },
);
