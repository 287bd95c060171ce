import Type from 'typebox';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

export const STOCK_CATEGORIES = ['chemical', 'agar', 'vessel', 'consumable', 'other'] as const;

/** The largest quantity a lot or reorder level holds (a double keeps it exactly). */
export const QUANTITY_MAX = 1e12;

const Quantity = (description: string) =>
  Type.Number({ minimum: 0, maximum: QUANTITY_MAX, description });

const UnitName = (description: string) => Type.String({ minLength: 1, maxLength: 20, description });

const Day = (description: string) => Type.String({ format: 'date', description });

export const StockItem = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    category: Type.String({ description: STOCK_CATEGORIES.join(', ') }),
    unit: Type.String({ description: 'The unit its lots and reorder level are counted in' }),
    reorder_level: Nullable(
      Type.Number({ description: "A lot holding less (in the item's unit) raises a task" }),
    ),
    notes: Nullable(Type.String()),
    created_by: Nullable(Uuid()),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'StockItem' },
);

export const CreateStockItemBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    category: StringEnum(STOCK_CATEGORIES),
    unit: UnitName('A unit of measure (g, mg, L, mL, …) or a count (each, vessel, …)'),
    reorder_level: Type.Optional(Nullable(Quantity("In the item's unit"))),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  },
  { additionalProperties: false },
);

export const UpdateStockItemBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    category: Type.Optional(StringEnum(STOCK_CATEGORIES)),
    reorder_level: Type.Optional(Nullable(Quantity("In the item's unit"))),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  },
  { additionalProperties: false },
);

export const StockItemParams = Type.Object({ id: Uuid() });
export const StockLotParams = Type.Object({ id: Uuid(), lotId: Uuid() });

export const StockItemQuery = Type.Object({
  category: Type.Optional(StringEnum(STOCK_CATEGORIES)),
});

export const StockLot = Type.Object(
  {
    id: Uuid(),
    item_id: Uuid(),
    lot_number: Type.String(),
    supplier: Nullable(Type.String()),
    received_on: Nullable(Type.String({ description: 'A date' })),
    expires_on: Nullable(Type.String({ description: 'A date' })),
    quantity: Type.Number({ description: 'What the lot still holds, in its unit' }),
    initial_quantity: Type.Number({ description: 'What it held when received' }),
    unit: Type.String(),
    low_task_id: Nullable(
      Uuid({ description: "The task raised when it fell below its item's reorder level" }),
    ),
    expired_task_id: Nullable(Uuid({ description: 'The task raised when it passed its expiry' })),
    notes: Nullable(Type.String()),
    created_by: Nullable(Uuid()),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'StockLot' },
);

export const CreateStockLotBody = Type.Object(
  {
    lot_number: Type.String({ minLength: 1, maxLength: 100 }),
    supplier: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    received_on: Type.Optional(Nullable(Day('Default today (UTC)'))),
    expires_on: Type.Optional(Nullable(Day('The last day it may be used'))),
    quantity: Quantity('What it holds, in `unit`'),
    unit: Type.Optional(
      UnitName("Default the item's unit; another must convert to it (mg for an item in g)"),
    ),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  },
  { additionalProperties: false },
);

export const UpdateStockLotBody = Type.Object(
  {
    lot_number: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    supplier: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    received_on: Type.Optional(Nullable(Day('A date'))),
    expires_on: Type.Optional(Nullable(Day('The last day it may be used'))),
    quantity: Type.Optional(Quantity('A count of what it holds now, in its unit')),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  },
  { additionalProperties: false },
);
