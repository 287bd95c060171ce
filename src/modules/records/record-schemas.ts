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

/** What creating or changing a plant or an explant accepts beside its own fields. */
export const trackedEditableFields = {
  external_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  custom_fields: Type.Optional(CustomFieldValues),
};
