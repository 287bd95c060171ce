import Type from 'typebox';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

export const ChangeEvent = Type.Object(
  {
    id: Uuid(),
    entity_type: StringEnum(['plant', 'explant']),
    entity_id: Uuid(),
    stage_id: Nullable(Uuid()),
    event_type: Type.String({
      description: 'created, updated, stage_change, transfer, contamination, …',
    }),
    event_time: Type.String(),
    recorded_by: Nullable(Uuid()),
    payload: Type.Unknown(),
    created_at: Type.String(),
  },
  { $id: 'ChangeEvent' },
);

export const ChangeEventQuery = Type.Object({
  entity: StringEnum(['plant', 'explant']),
  since: Type.Optional(
    Type.String({
      format: 'date-or-date-time',
      description: 'Only events recorded strictly after this ISO 8601 time (or date)',
    }),
  ),
});

export const ActivityQuery = Type.Object({
  entity: Type.Optional(StringEnum(['plant', 'explant'])),
  entity_id: Type.Optional(
    Uuid({ description: 'One plant or explant (404 when not a record of the workspace)' }),
  ),
});
