import Type from 'typebox';
import { MoneyRef, Nullable, NullableMoney, Uuid } from '../../kernel/schemas.js';

export const PRICE_SOURCES = ['manual', 'store_adopted', 'store_follow'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

const PriceSource = Type.String({ description: PRICE_SOURCES.join(', ') });

export const CultureLinePrice = Type.Object(
  {
    id: Uuid(),
    plant_id: Uuid(),
    list_price: MoneyRef(),
    wholesale_price: NullableMoney(),
    previous_list_price: NullableMoney(),
    pricing_tier: Nullable(Type.String()),
    tier_score: Nullable(Type.String({ description: 'exact decimal' })),
    price_source: PriceSource,
    price_source_at: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    created_at: Nullable(Type.String()),
    updated_at: Nullable(Type.String()),
  },
  { $id: 'CultureLinePrice' },
);

export const PriceEvent = Type.Object(
  {
    id: Uuid(),
    plant_id: Uuid(),
    list_price: MoneyRef(),
    previous_list_price: NullableMoney(),
    price_source: PriceSource,
    changed_by: Nullable(Uuid()),
    changed_at: Nullable(Type.String()),
  },
  { $id: 'PriceEvent' },
);

export const CultureLinePriceQuery = Type.Object({
  plant_id: Type.Optional(Uuid({ description: 'only this culture line (plant)' })),
  pricing_tier: Type.Optional(
    Type.String({ minLength: 1, maxLength: 40, description: 'only this tier (exact match)' }),
  ),
});

export const PriceEventQuery = Type.Object({
  plant_id: Type.Optional(Uuid({ description: 'only this culture line (plant)' })),
  from: Type.Optional(
    Type.String({ format: 'date-time', description: 'changed at or after (ISO 8601 with zone)' }),
  ),
  to: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'changed at or before (ISO 8601 with zone); not earlier than from',
    }),
  ),
});
