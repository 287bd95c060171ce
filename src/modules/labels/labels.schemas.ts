import Type from 'typebox';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

export const LABEL_RECORD_TYPES = ['plant', 'explant', 'container'] as const;
export type LabelRecordType = (typeof LABEL_RECORD_TYPES)[number];
export const LABEL_CONTENT_TYPES = ['plant', 'explant'] as const;
export type LabelContentType = (typeof LABEL_CONTENT_TYPES)[number];

export const LabelContentItem = Type.Object(
  {
    item_id: Uuid({ description: 'The place of this item on the container label' }),
    record_type: Type.Unsafe<LabelContentType | null>({
      type: ['string', 'null'],
      enum: [...LABEL_CONTENT_TYPES, null],
      description: 'null for an item linked to no record',
    }),
    record_id: Nullable(Uuid()),
    display_name: Type.String(),
    url: Nullable(
      Type.String({ description: "The record's API address; null when it no longer exists" }),
    ),
  },
  { $id: 'LabelContentItem' },
);

export const LabelResolution = Type.Object(
  {
    barcode: Type.String(),
    record_type: StringEnum(LABEL_RECORD_TYPES),
    record_id: Uuid(),
    display_name: Type.String(),
    url: Type.String({
      description:
        "The record's API address (`…/api/v1/plants/{id}`, `…/api/v1/explants/{id}`); for a " +
        'container, the address that resolves its label again',
    }),
    contents: Type.Optional(Type.Array(LabelContentItem, { description: 'Containers only' })),
  },
  { $id: 'LabelResolution' },
);

export const ResolveLabelQuery = Type.Object({
  barcode: Type.String({
    minLength: 1,
    maxLength: 512,
    description: 'The code read from a QR or barcode label',
  }),
});
