import Type from 'typebox';
import {
  Int,
  MoneyRef,
  Nullable,
  NullableMoney,
  OccurredWindowQuery,
  Uuid,
} from '../../kernel/schemas.js';
import { OFFSET_MAX } from '../../kernel/paging.js';

export const OrderLine = Type.Object(
  {
    id: Uuid(),
    product_link_id: Nullable(Uuid()),
    plant_id: Nullable(Uuid()),
    store_product_id: Nullable(Type.String()),
    store_variant_id: Nullable(Type.String()),
    quantity: Type.Integer(),
    unit_price: NullableMoney(),
    occurred_at: Nullable(Type.String()),
  },
  { $id: 'OrderLine' },
);

export const SellThroughGroup = Type.Object(
  {
    plant_id: Nullable(Uuid()),
    currency: Nullable(Type.String()),
    units: Type.Integer({ description: 'units sold: the sum of the lines’ quantities' }),
    revenue: MoneyRef(),
    order_line_count: Type.Integer(),
    priced_line_count: Type.Integer({ description: 'lines with a unit price' }),
    first_occurred_at: Nullable(Type.String()),
    last_occurred_at: Nullable(Type.String()),
  },
  { $id: 'SellThroughGroup' },
);

export const OrderLineQuery = Type.Object({
  ...OccurredWindowQuery,
  product_link_id: Type.Optional(Uuid({ description: 'only the lines of this product link' })),
});

/** The summary's paging: offsets only (it has no cursor). */
export const SELL_THROUGH_DEFAULT_LIMIT = 50;
export const SELL_THROUGH_MAX_LIMIT = 200;

export const SellThroughQuery = Type.Object({
  ...OccurredWindowQuery,
  plant_id: Type.Optional(Uuid({ description: 'only this culture line (plant)' })),
  limit: Type.Optional(
    Int({
      minimum: 1,
      description: `Groups per response, default ${SELL_THROUGH_DEFAULT_LIMIT}; values above ${SELL_THROUGH_MAX_LIMIT} are capped`,
    }),
  ),
  offset: Type.Optional(
    Int({ minimum: 0, maximum: OFFSET_MAX, description: 'Groups to skip, 0 to 1,000,000' }),
  ),
});
