import Type from 'typebox';
import { Nullable, Uuid } from '../../kernel/schemas.js';

/** A recorded scan; camelCase keys, as the wire format has them, although the body is snake_case. */
export const LabelScan = Type.Object(
  {
    id: Uuid(),
    barcode: Type.String(),
    resolved: Type.Boolean({ description: 'Whether the scan named a plant or an explant' }),
    plantId: Nullable(Uuid()),
    explantId: Nullable(Uuid()),
    context: Nullable(Type.String()),
    scannedAt: Type.String(),
  },
  { $id: 'LabelScan' },
);

export const CreateLabelScanBody = Type.Object(
  {
    barcode: Type.String({ minLength: 1, maxLength: 512 }),
    plant_id: Type.Optional(Uuid({ description: 'The plant the code was resolved to' })),
    explant_id: Type.Optional(Uuid({ description: 'The explant the code was resolved to' })),
    context: Type.Optional(
      Type.String({ maxLength: 120, description: 'Where or why, e.g. `transfer-bench`' }),
    ),
    scanned_at: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'ISO 8601 with a time zone; default the time of receipt',
      }),
    ),
  },
  { additionalProperties: false },
);
