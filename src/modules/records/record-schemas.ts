import Type from 'typebox';
import { CustomFieldValues, Nullable, Uuid } from '../../kernel/schemas.js';
import { CurrentStage } from './current-stage.js';

/** What a plant or an explant answers with after its own fields, in this order. */
export const trackedRecordFields = {
  updated_at: Type.String(),
  current_stage: CurrentStage,
  archived_at: Nullable(
    Type.String({ description: 'When it was archived (left out of lists); null when not' }),
  ),
  archived_by: Nullable(Uuid({ description: 'Who archived it' })),
};

/** Who created a plant or an explant (Vitro's addition, last in the record). */
export const createdByField = Nullable(
  Uuid({
    description:
      'The member who created it: they and managers and above may move, edit and archive it ' +
      '(Vitro addition; GET /people names them)',
  }),
);

/** What creating or changing a plant or an explant accepts beside its own fields. */
export const trackedEditableFields = {
  external_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  custom_fields: Type.Optional(CustomFieldValues),
};
