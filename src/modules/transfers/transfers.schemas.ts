import Type from 'typebox';
import { Count, CustomFieldValues, Int, Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

/** Statuses a transfer is recorded with; `cancelled` and `active` appear only on older rows. */
export const TRANSFER_STATUSES = ['completed', 'pending'] as const;

export const Transfer = Type.Object(
  {
    id: Uuid(),
    entity_type: StringEnum(['plant', 'explant']),
    entity_id: Uuid(),
    transfer_date: Nullable(Type.String({ description: 'ISO 8601 UTC' })),
    transfer_cycle: Nullable(Type.Integer({ description: 'the nth transfer of the record' })),
    from_location: Nullable(Type.String()),
    to_location: Nullable(Type.String()),
    status: Type.String({ description: 'completed, pending, cancelled, active' }),
    notes: Nullable(Type.String()),
    created_at: Nullable(Type.String()),
    custom_fields: CustomFieldValues,
    vessel_count: Nullable(
      Type.Integer({ description: 'vessels counted at the transfer (explants only)' }),
    ),
    plantlet_count: Nullable(
      Type.Integer({ description: 'plantlets counted at the transfer (explants only)' }),
    ),
    media_batch_id: Type.Optional(
      Uuid({
        description:
          "Vitro's addition: the medium batch the transfer put it on; only on a transfer that names one",
      }),
    ),
  },
  { $id: 'Transfer' },
);

export const CreateTransferBody = Type.Object(
  {
    plant_id: Type.Optional(Uuid()),
    explant_id: Type.Optional(Uuid()),
    transfer_date: Type.Optional(
      Type.String({
        format: 'date-or-date-time',
        description: 'A date or an ISO 8601 timestamp with zone; default now (UTC)',
      }),
    ),
    from_location: Type.Optional(Type.String({ maxLength: 200 })),
    to_location: Type.Optional(Type.String({ maxLength: 200 })),
    transfer_cycle: Type.Optional(
      Int({
        minimum: 1,
        description: "Default: the record's highest cycle + 1; a cycle already recorded is refused",
      }),
    ),
    notes: Type.Optional(Type.String({ maxLength: 5000 })),
    status: Type.Optional(StringEnum(TRANSFER_STATUSES, { description: 'default completed' })),
    custom_fields: Type.Optional(
      Nullable(CustomFieldValues, { description: 'Explant transfers only' }),
    ),
    vessel_count: Type.Optional(
      Count({
        description: "Explant transfers only: vessels now; becomes the explant's current_count",
      }),
    ),
    plantlet_count: Type.Optional(
      Count({
        description: "Explant transfers only: plantlets now; becomes the explant's plantlet_count",
      }),
    ),
    media_batch_id: Type.Optional(
      Uuid({
        description:
          "Vitro's addition: the medium batch it goes onto, a batch of the workspace not expired or discarded (422)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const TransferQuery = Type.Object({
  plant_id: Type.Optional(Uuid()),
  explant_id: Type.Optional(Uuid()),
});
