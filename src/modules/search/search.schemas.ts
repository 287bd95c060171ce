import Type from 'typebox';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

export const SEARCH_KINDS = ['plant', 'explant', 'task', 'sop', 'room', 'contamination'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const SEARCH_Q_MAX_LENGTH = 200;

export const SearchQuery = Type.Object({
  q: Type.String({
    minLength: 1,
    maxLength: SEARCH_Q_MAX_LENGTH,
    description:
      'Words to find (letter case and accents aside); each must begin a word of the record, ' +
      'e.g. `mon del` finds Monstera deliciosa (a one-character word must be a whole word). ' +
      'At most 8 words count.',
  }),
  kind: Type.Optional(
    StringEnum(SEARCH_KINDS, {
      description: 'Only records of this kind (403 when the key may not read them)',
    }),
  ),
});

export const SearchResult = Type.Object(
  {
    kind: Type.String({ description: SEARCH_KINDS.join(', ') }),
    id: Uuid({ description: 'The record (GET /plants/{id}, /explants/{id}, …)' }),
    title: Type.String({
      description:
        "The record's name: a plant's common name or species, an explant's label, a task's or " +
        "SOP's title, a room's name, a contamination's issue",
    }),
    subtitle: Nullable(Type.String({ description: 'What tells it from others of that name' })),
    parent_id: Nullable(
      Uuid({ description: "An explant's plant (a search for the plant finds its explants)" }),
    ),
  },
  { $id: 'SearchResult' },
);
