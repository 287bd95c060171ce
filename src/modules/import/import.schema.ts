import Type, { type Static } from 'typebox';
import { FEATURES } from '../../kernel/access.js';
import {
  Closed,
  Count,
  Int,
  Nullable,
  OptionalOf,
  OptionalText,
  StringEnum,
  Text,
  Uuid,
} from '../../kernel/schemas.js';
import { equipmentFields } from '../equipment/index.js';
import { WORKSPACE_TYPES } from '../identity/index.js';
import { LABEL_CONTENT_TYPES, LABEL_RECORD_TYPES } from '../labels/index.js';
import {
  CUSTOM_FIELD_ENTITIES,
  customFieldProperties,
  RoomName,
  StageListInput,
} from '../lab/index.js';
import { CURRENCY_PATTERN, DECIMAL_PATTERN, PRICE_SOURCES } from '../pricing/index.js';
import { sopFields, sopVersionFields } from '../sops/index.js';

/*
 * The import file (resources.md §Import file). Every object is closed
 * (`additionalProperties: false`): an unknown key is an error, never ignored.
 * A `pattern` carries a `description` that completes "must be …" in errors.
 */

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

const SopVersion = Closed({ id: Id(), ...sopVersionFields });

const Sop = Closed({
  id: Id(),
  ...sopFields,
  versions: Type.Optional(Type.Array(SopVersion, { maxItems: 1000 })),
});

const Equipment = Closed({ id: Id(), ...equipmentFields });

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
