import Type from 'typebox';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

export const LABEL_RECORD_TYPES = ['plant', 'explant', 'container'] as const;
export type LabelRecordType = (typeof LABEL_RECORD_TYPES)[number];
export const LABEL_CONTENT_TYPES = ['plant', 'explant'] as const;
export type LabelContentType = (typeof LABEL_CONTENT_TYPES)[number];
/** What a code may resolve to: a media batch too, by its id (what its printed label carries). */
export const LABEL_RESOLUTION_TYPES = [...LABEL_RECORD_TYPES, 'media_batch'] as const;
export type LabelResolutionType = (typeof LABEL_RESOLUTION_TYPES)[number];

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
    record_type: StringEnum(LABEL_RESOLUTION_TYPES, {
      description:
        '`media_batch` for the id of a media batch (what its printed label carries), named ' +
        "by its recipe's title and the day it was made",
    }),
    record_id: Uuid(),
    display_name: Type.String(),
    url: Type.String({
      description:
        "The record's API address (`…/api/v1/plants/{id}`, `…/api/v1/explants/{id}`, " +
        '`…/api/v1/media-batches/{id}`); for a container, the address that resolves its ' +
        'label again',
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
