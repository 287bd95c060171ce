import Type, { type Static } from 'typebox';
import {
  Closed,
  Nullable,
  OccurredWindowQuery,
  OptionalOf,
  OptionalText,
  StringEnum,
  Text,
  Uuid,
} from '../../kernel/schemas.js';

export const EQUIPMENT_CATEGORIES = [
  'balance_scale',
  'autoclave_pressure_cooker',
  'laminar_flow_hood',
  'still_air_box',
  'incubator',
  'light_rack',
  'fridge_freezer',
  'ph_ec_meter',
  'microscope',
  'label_printer',
  'other',
] as const;
export const EQUIPMENT_STATUSES = ['active', 'archived'] as const;

/** Event kinds: the wire format's three, and `service` and `fault` (resources.md decision 6). */
export const EQUIPMENT_EVENT_KINDS = [
  'used',
  'calibration',
  'preventive_maintenance',
  'service',
  'fault',
] as const;
export type EquipmentEventKind = (typeof EQUIPMENT_EVENT_KINDS)[number];

export const EQUIPMENT_OUTCOMES = [
  'pass',
  'pass_after_adjustment',
  'out_of_tolerance',
  'fail',
  'not_performed',
] as const;

/** What a `used` event names: the record the equipment was used for. */
export const SUBJECT_TYPES = [
  'sop_log',
  'media_batch',
  'plant_transfer',
  'explant_transfer',
  'contamination_log',
] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];

export const Equipment = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    category: Type.String({ description: EQUIPMENT_CATEGORIES.join(', ') }),
    status: Type.String({ description: EQUIPMENT_STATUSES.join(', ') }),
    manufacturer: Nullable(Type.String()),
    model: Nullable(Type.String()),
    serial_number: Nullable(Type.String()),
    location: Nullable(Type.String()),
    purchase_date: Nullable(Type.String()),
    vendor_url: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    last_calibrated_at: Nullable(Type.String()),
    next_calibration_due_at: Nullable(Type.String()),
    last_maintenance_at: Nullable(Type.String()),
    next_maintenance_due_at: Nullable(Type.String()),
    created_at: Nullable(Type.String()),
    updated_at: Nullable(Type.String()),
  },
  { $id: 'Equipment' },
);

export const EquipmentParams = Type.Object({ id: Uuid() });

export const EquipmentQuery = Type.Object({
  category: Type.Optional(StringEnum(EQUIPMENT_CATEGORIES)),
  status: Type.Optional(
    StringEnum(EQUIPMENT_STATUSES, { description: 'without it, archived equipment is listed too' }),
  ),
});

export const EquipmentEvent = Type.Object(
  {
    id: Uuid(),
    equipment_id: Uuid(),
    kind: Type.String({ description: EQUIPMENT_EVENT_KINDS.join(', ') }),
    occurred_at: Nullable(Type.String({ description: 'used_at or performed_at' })),
    outcome: Nullable(Type.String({ description: EQUIPMENT_OUTCOMES.join(', ') })),
    subject_type: Nullable(Type.String({ description: SUBJECT_TYPES.join(', ') })),
    subject_id: Nullable(Uuid()),
    subject_label: Nullable(Type.String()),
    performed_by_name: Nullable(Type.String()),
    provider: Nullable(Type.String()),
    as_found_condition: Nullable(Type.String()),
    as_left_condition: Nullable(Type.String()),
    result_summary: Nullable(Type.String()),
    certificate_number: Nullable(Type.String()),
    certificate_url: Nullable(Type.String()),
    next_due_at: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    recorded_at: Type.String({
      description: 'when the event was recorded (the receipt’s recordedAt)',
    }),
  },
  { $id: 'EquipmentEvent' },
);

export const EquipmentEventReceipt = Type.Object(
  {
    id: Uuid(),
    equipmentId: Uuid(),
    kind: Type.String(),
    recordedAt: Type.String(),
  },
  { $id: 'EquipmentEventReceipt' },
);

const Performed = {
  performed_at: Type.Optional(
    Type.String({ format: 'date-time', description: 'ISO 8601 with zone; default now' }),
  ),
  performed_by_name: Type.Optional(Type.String({ maxLength: 200 })),
  result_summary: Type.Optional(Type.String({ maxLength: 2000 })),
  notes: Type.Optional(Type.String({ maxLength: 2000 })),
  next_due_at: Type.Optional(
    Type.String({
      format: 'date-or-date-time',
      description:
        'when the next one is due (a date or an ISO 8601 timestamp with zone); sets the ' +
        "equipment's next calibration (calibration) or maintenance (preventive_maintenance, service) due date",
    }),
  ),
};

const UsedBody = Type.Object(
  {
    kind: Type.Literal('used'),
    subject_type: StringEnum(SUBJECT_TYPES),
    subject_id: Uuid(),
    subject_label: Type.Optional(Type.String({ maxLength: 200 })),
    used_at: Type.Optional(
      Type.String({ format: 'date-time', description: 'ISO 8601 with zone; default now' }),
    ),
    notes: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { $id: 'EquipmentUseBody', additionalProperties: false },
);

const CalibrationBody = Type.Object(
  {
    kind: StringEnum(['calibration', 'preventive_maintenance'] as const),
    outcome: Type.Optional(StringEnum(EQUIPMENT_OUTCOMES, { default: 'pass' })),
    ...Performed,
  },
  { $id: 'EquipmentCalibrationBody', additionalProperties: false },
);

const ServiceBody = Type.Object(
  {
    kind: StringEnum(['service', 'fault'] as const),
    outcome: Type.Optional(StringEnum(EQUIPMENT_OUTCOMES, { description: 'no default' })),
    ...Performed,
  },
  { $id: 'EquipmentServiceBody', additionalProperties: false },
);

/**
 * One of three bodies, chosen by `kind` (a discriminator, so that errors speak of
 * the chosen one). `kind` itself is checked first, so a missing or unknown kind
 * is named as such.
 */
export const CreateEquipmentEventBody = Type.Unsafe<
  Static<typeof UsedBody> | Static<typeof CalibrationBody> | Static<typeof ServiceBody>
>({
  type: 'object',
  required: ['kind'],
  properties: { kind: StringEnum(EQUIPMENT_EVENT_KINDS) },
  oneOf: [UsedBody, CalibrationBody, ServiceBody],
  discriminator: { propertyName: 'kind' },
});

export const EquipmentEventQuery = Type.Object({
  kind: Type.Optional(
    StringEnum(EQUIPMENT_EVENT_KINDS, {
      description: 'only this kind; with it, offset paging works too (without it: cursor only)',
    }),
  ),
  ...OccurredWindowQuery,
});

/**
 * A piece of equipment as it is written, by an import file and by the API alike
 * (one schema): the library fields; calibration and maintenance dates come from
 * its events.
 */
export const equipmentFields = {
  name: Text(200),
  category: StringEnum(EQUIPMENT_CATEGORIES),
  status: Type.Optional(
    StringEnum(EQUIPMENT_STATUSES, { description: 'default active; archived retires it' }),
  ),
  manufacturer: OptionalText(200),
  model: OptionalText(200),
  serial_number: OptionalText(200),
  location: OptionalText(200),
  purchase_date: OptionalOf(Type.String({ format: 'date' })),
  vendor_url: OptionalOf(
    Type.String({ maxLength: 2000, pattern: '^https?://\\S+$', description: 'an http(s) URL' }),
  ),
  notes: OptionalText(5000),
};

/** POST /equipment: a name another piece of equipment has is refused (409); imports match on it. */
export const CreateEquipmentBody = Closed(equipmentFields);

/** PATCH /equipment/{id}: the fields sent change; null clears; `status: archived` retires it. */
export const UpdateEquipmentBody = Type.Object(
  {
    ...equipmentFields,
    name: Type.Optional(equipmentFields.name),
    category: Type.Optional(equipmentFields.category),
  },
  { additionalProperties: false, minProperties: 1 },
);
