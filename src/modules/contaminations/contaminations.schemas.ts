import Type from 'typebox';
import { Count, CustomFieldValues, Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

export const CONTAMINATION_TYPES = [
  'mold',
  'bacteria',
  'hyperhydricity',
  'phenolic',
  'algae',
  'yeast',
  'endophytic',
  'viral',
  'fungal',
  'physiological',
  'contaminated_media',
  'damage',
  'insect',
  'other',
] as const;

export const SEVERITIES = ['very low', 'low', 'medium', 'high', 'critical'] as const;

export const CONTAMINATION_STATUSES = [
  'active',
  'resolved',
  'quarantined',
  'archived',
  'under investigation',
] as const;

export const SUSPECTED_SOURCES = [
  'airborne',
  'cross',
  'media',
  'observed',
  'tool',
  'transferred',
  'unknown',
] as const;

/** How a contamination ended. */
export const RESOLUTION_OUTCOMES = [
  'discarded',
  'treated',
  'recovered',
  'false_alarm',
  'other',
] as const;

/** Statuses of a contamination that still needs attention (the `open` filter). */
export const OPEN_CONTAMINATION_STATUSES = [
  'active',
  'quarantined',
  'under investigation',
] as const;

/** Counts of a contamination: bounded as the wire format bounds them. */
const AFFECTED_MAX = 1_000_000;

export const Contamination = Type.Object(
  {
    id: Uuid(),
    workspace_id: Nullable(Type.String()),
    type: Nullable(Type.String({ description: CONTAMINATION_TYPES.join(', ') })),
    type_other: Nullable(Type.String({ description: 'the type in words when type is other' })),
    issue: Type.String(),
    description: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    severity: Type.String({ description: SEVERITIES.join(', ') }),
    status: Type.String({ description: CONTAMINATION_STATUSES.join(', ') }),
    observed_at: Nullable(Type.String()),
    resolved_at: Nullable(Type.String()),
    vessels_affected: Nullable(Type.Integer({ description: 'null: not counted; 0: none' })),
    plants_affected: Nullable(Type.Integer({ description: 'null: not counted; 0: none' })),
    affected_vessel_markings: Nullable(Type.String()),
    custom_fields: CustomFieldValues,
    plant_ids: Type.Array(Uuid()),
    explant_ids: Type.Array(Uuid()),
    logged_by: Uuid(),
    created_at: Nullable(Type.String()),
    updated_at: Nullable(Type.String()),
    suspected_source: Nullable(Type.String({ description: SUSPECTED_SOURCES.join(', ') })),
    stage: Nullable(
      Type.String({ description: 'the stage the plant or explant was in when observed' }),
    ),
    room_id: Nullable(Uuid({ description: 'the room of that stage, when recorded' })),
    resolution_outcome: Nullable(
      Type.String({
        description: `How it was resolved (POST /contaminations/{id}/resolve): ${RESOLUTION_OUTCOMES.join(', ')}`,
      }),
    ),
    resolution_notes: Nullable(Type.String()),
    resolved_by: Nullable(Uuid({ description: 'The member who resolved it' })),
  },
  { $id: 'Contamination' },
);

const affected = () =>
  Type.Optional(Count({ maximum: AFFECTED_MAX, description: 'omitted: not counted; 0: none' }));

export const CreateContaminationBody = Type.Object(
  {
    plant_id: Type.Optional(Uuid()),
    explant_id: Type.Optional(Uuid()),
    type: StringEnum(CONTAMINATION_TYPES),
    type_other: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Required when type is other; ignored otherwise',
      }),
    ),
    issue: Type.String({ minLength: 1, maxLength: 300 }),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    notes: Type.Optional(Type.String({ maxLength: 5000 })),
    severity: Type.Optional(StringEnum(SEVERITIES, { description: 'default low' })),
    status: Type.Optional(StringEnum(CONTAMINATION_STATUSES, { description: 'default active' })),
    suspected_source: Type.Optional(StringEnum(SUSPECTED_SOURCES)),
    observed_at: Type.Optional(
      Type.String({ format: 'date-time', description: 'With a time zone; default now' }),
    ),
    vessels_affected: affected(),
    plants_affected: affected(),
    affected_vessel_markings: Type.Optional(Type.String({ maxLength: 500 })),
    custom_fields: Type.Optional(Nullable(CustomFieldValues)),
  },
  { additionalProperties: false },
);

export const ContaminationQuery = Type.Object({
  plant_id: Type.Optional(Uuid()),
  explant_id: Type.Optional(Uuid()),
  status: Type.Optional(StringEnum(CONTAMINATION_STATUSES)),
  since: Type.Optional(
    Type.String({
      format: 'date-or-date-time',
      description: 'Only logs recorded at or after this ISO 8601 time (or date)',
    }),
  ),
  open: Type.Optional(
    Type.Boolean({
      description: `true: only logs that still need attention (${OPEN_CONTAMINATION_STATUSES.join(', ')}); false: only the others`,
    }),
  ),
});

export const ResolveContaminationBody = Type.Object(
  {
    outcome: StringEnum(RESOLUTION_OUTCOMES),
    notes: Type.Optional(Type.String({ maxLength: 5000 })),
    resolved_at: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'When it was resolved, with a time zone; default now',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ContaminationParams = Type.Object({ id: Uuid() });
