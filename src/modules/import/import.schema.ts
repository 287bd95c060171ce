import Type, { type Static, type TSchema } from 'typebox';
import { FEATURES } from '../../kernel/access.js';
import {
  Count,
  FINITE_NUMBER_BOUNDS,
  Int,
  Nullable,
  StringEnum,
  Uuid,
} from '../../kernel/schemas.js';
import { EQUIPMENT_CATEGORIES, EQUIPMENT_STATUSES } from '../equipment/index.js';
import { WORKSPACE_TYPES } from '../identity/index.js';
import { LABEL_CONTENT_TYPES, LABEL_RECORD_TYPES } from '../labels/index.js';
import {
  Closed,
  CUSTOM_FIELD_ENTITIES,
  customFieldProperties,
  RoomName,
  StageListInput,
  Text,
} from '../lab/index.js';
import { CURRENCY_PATTERN, DECIMAL_PATTERN, PRICE_SOURCES } from '../pricing/index.js';
import { SOP_LEVELS, SOP_LIFECYCLE_STATUSES, SOP_STATUSES, StepId } from '../sops/index.js';

/*
 * The import file (resources.md §Import file). Every object is closed
 * (`additionalProperties: false`): an unknown key is an error, never ignored.
 * A `pattern` carries a `description` that completes "must be …" in errors.
 */

const NullableEnum = <const V extends readonly string[]>(values: V) =>
  Type.Unsafe<V[number] | null>({ type: ['string', 'null'], enum: [...values, null] });

const OptionalText = (max: number) => Type.Optional(Nullable(Type.String({ maxLength: max })));
const OptionalOf = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** A duration in minutes or hours: finite, at most a million (stored as double precision). */
const Duration = () => Type.Number({ minimum: 0, maximum: 1_000_000 });

const Id = () => Type.Optional(Uuid({ description: 'a UUID; generated when absent' }));
const ZonedTimestamp = () => Type.String({ format: 'date-time' });

const Decimal = () =>
  Type.String({
    maxLength: 40,
    pattern: DECIMAL_PATTERN,
    description: 'an exact decimal string such as "18.50"',
  });

const Money = Closed({
  amount: Decimal(),
  currency: Nullable(
    Type.String({
      pattern: CURRENCY_PATTERN,
      description: 'a 3-letter currency code such as "USD"',
    }),
  ),
});

const WorkspaceSection = Closed({
  name: Type.Optional(Text(200)),
  type: Type.Optional(StringEnum(WORKSPACE_TYPES)),
  features: Type.Optional(Type.Array(StringEnum(FEATURES), { uniqueItems: true })),
  device_allowance: OptionalOf(Count()),
  subculture_interval_days: Type.Optional(Int({ minimum: 1, maximum: 365 })),
});

const CustomField = Closed({
  entity: StringEnum(CUSTOM_FIELD_ENTITIES),
  ...customFieldProperties,
});

const Room = Closed({ id: Id(), name: RoomName() });

/** A reading a step asks for: runs' measurements of this metric must use its unit and range. */
const StepMeasurement = Closed({
  metric: Text(60),
  unit: Text(20),
  min: OptionalOf(Type.Number(FINITE_NUMBER_BOUNDS)),
  max: OptionalOf(Type.Number(FINITE_NUMBER_BOUNDS)),
});

const SopStep = Closed({
  id: StepId('a step id of 1 to 64 letters, digits, ".", "_", ":" or "-" (e.g. step-1)'),
  instruction: Text(5000),
  notes: OptionalText(5000),
  safety_warning: OptionalText(2000),
  estimated_minutes: OptionalOf(Duration()),
  measurements: Type.Optional(Type.Array(StepMeasurement, { maxItems: 20 })),
});

const SopVersion = Closed({
  id: Id(),
  version: Int({ minimum: 1 }),
  lifecycle_status: StringEnum(SOP_LIFECYCLE_STATUSES),
  effective_at: OptionalOf(ZonedTimestamp()),
  approved_at: OptionalOf(ZonedTimestamp()),
  title: OptionalText(300),
  description: OptionalText(5000),
  steps: Type.Optional(Type.Array(SopStep, { maxItems: 500 })),
});

const Sop = Closed({
  id: Id(),
  title: Text(300),
  description: OptionalText(5000),
  category: OptionalText(100),
  status: Type.Optional(NullableEnum(SOP_STATUSES)),
  level: Type.Optional(NullableEnum(SOP_LEVELS)),
  tags: Type.Optional(Type.Array(Text(100), { maxItems: 100 })),
  equipment: Type.Optional(Type.Array(Text(200), { maxItems: 100 })),
  estimated_time_minutes: OptionalOf(Duration()),
  duration_hours: OptionalOf(Duration()),
  versions: Type.Optional(Type.Array(SopVersion, { maxItems: 1000 })),
});

const Equipment = Closed({
  id: Id(),
  name: Text(200),
  category: StringEnum(EQUIPMENT_CATEGORIES),
  status: Type.Optional(StringEnum(EQUIPMENT_STATUSES)),
  manufacturer: OptionalText(200),
  model: OptionalText(200),
  serial_number: OptionalText(200),
  location: OptionalText(200),
  purchase_date: OptionalOf(Type.String({ format: 'date' })),
  vendor_url: OptionalOf(
    Type.String({ maxLength: 2000, pattern: '^https?://\\S+$', description: 'an http(s) URL' }),
  ),
  notes: OptionalText(5000),
});

const Label = Closed({
  barcode: Text(512),
  record_type: StringEnum(LABEL_RECORD_TYPES),
  record_id: Uuid(),
  display_name: Text(200),
  contents: Type.Optional(
    Type.Array(Closed({ record_type: StringEnum(LABEL_CONTENT_TYPES), record_id: Uuid() }), {
      maxItems: 1000,
    }),
  ),
});

const CultureLinePrice = Closed({
  id: Id(),
  plant_id: Uuid(),
  list_price: Money,
  wholesale_price: OptionalOf(Money),
  pricing_tier: OptionalOf(Text(40)),
  tier_score: OptionalOf(Decimal()),
  price_source: Type.Optional(StringEnum(PRICE_SOURCES)),
  notes: OptionalText(5000),
});

const PriceEvent = Closed({
  id: Id(),
  plant_id: Uuid(),
  list_price: Money,
  previous_list_price: OptionalOf(Money),
  price_source: Type.Optional(StringEnum(PRICE_SOURCES)),
  changed_at: ZonedTimestamp(),
});

const OrderLine = Closed({
  id: Id(),
  plant_id: OptionalOf(Uuid()),
  product_link_id: OptionalOf(Uuid()),
  store_product_id: OptionalOf(Text(200)),
  store_variant_id: OptionalOf(Text(200)),
  quantity: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  unit_price: OptionalOf(Money),
  occurred_at: OptionalOf(ZonedTimestamp()),
});

export const ImportFileSchema = Closed({
  workspace: Type.Optional(WorkspaceSection),
  stages: Type.Optional(
    Closed({ plant: Type.Optional(StageListInput), explant: Type.Optional(StageListInput) }),
  ),
  custom_fields: Type.Optional(Type.Array(CustomField, { maxItems: 1000 })),
  rooms: Type.Optional(Type.Array(Room)),
  sops: Type.Optional(Type.Array(Sop)),
  equipment: Type.Optional(Type.Array(Equipment)),
  labels: Type.Optional(Type.Array(Label)),
  culture_line_prices: Type.Optional(Type.Array(CultureLinePrice)),
  price_events: Type.Optional(Type.Array(PriceEvent)),
  order_lines: Type.Optional(Type.Array(OrderLine)),
});

export type ImportFile = Static<typeof ImportFileSchema>;
