import Type from 'typebox';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

/** The most records one sheet of labels names: ten A4 sheets of 3 × 8. */
export const MAX_LABEL_RECORDS = 240;

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const UUID_LIST = `^${UUID}(,${UUID}){0,${MAX_LABEL_RECORDS - 1}}$`;

const idList = (kind: string) =>
  Type.Optional(
    Type.String({
      maxLength: MAX_LABEL_RECORDS * 37,
      pattern: UUID_LIST,
      description: `Up to ${MAX_LABEL_RECORDS} ${kind} ids, comma-separated`,
    }),
  );

export const LabelCodesQuery = Type.Object(
  { plant_ids: idList('plant'), explant_ids: idList('explant') },
  { additionalProperties: false },
);

export const LABEL_CODE_SOURCES = ['label', 'identifier', 'id'] as const;

export const LabelCode = Type.Object(
  {
    record_type: StringEnum(['plant', 'explant'] as const),
    record_id: Uuid(),
    code: Nullable(
      Type.String({
        description:
          'What to print as the QR code: GET /labels/resolve answers this record for it. null ' +
          'when no code does (another record holds all of them)',
      }),
    ),
    source: Type.Unsafe<(typeof LABEL_CODE_SOURCES)[number] | null>({
      type: ['string', 'null'],
      enum: [...LABEL_CODE_SOURCES, null],
      description:
        "label: an imported label's barcode; identifier: the record's external id, batch " +
        "number or label; id: the record's id; null with no code",
    }),
    name: Type.String({ description: "A plant's name, an explant's label" }),
    stage: Nullable(Type.String({ description: 'The current stage, by its name in the list' })),
    date: Nullable(
      Type.String({ description: 'When the current stage was entered, else created (a date)' }),
    ),
  },
  { $id: 'LabelCode' },
);
