import Type from 'typebox';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

/**
 * What the change history records. `sensor_alert` (alert episodes) is listed only when
 * asked for with `entity=sensor_alert`: clients that ask for plants or explants, as
 * every existing client does, see exactly what they saw before alerts existed. So is
 * `stock_lot` (a lot below its reorder level or past its expiry: low, expired).
 */
export const ENTITY_TYPES = ['plant', 'explant', 'sensor_alert', 'stock_lot'] as const;

export const ChangeEvent = Type.Object(
  {
    id: Uuid(),
    entity_type: StringEnum(ENTITY_TYPES),
    entity_id: Uuid(),
    stage_id: Nullable(Uuid()),
    event_type: Type.String({
      description:
        'plants and explants: created, updated, stage_change, transfer, contamination; ' +
        'sensor alerts: opened, resolved; stock lots: low, expired',
    }),
    event_time: Type.String(),
    recorded_by: Nullable(Uuid()),
    payload: Type.Unknown(),
    created_at: Type.String(),
  },
  { $id: 'ChangeEvent' },
);

export const ChangeEventQuery = Type.Object({
  entity: StringEnum(ENTITY_TYPES),
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
