import Type from 'typebox';
import { Nullable } from '../../kernel/schemas.js';

/** The largest demand score: every integer up to it is exact in a double. */
export const DEMAND_SCORE_MAX = 1e15;

export const DemandSignal = Type.Object(
  {
    id: Type.String({ description: 'uuid; "current" for the latest reading of a genus' }),
    genus: Type.String(),
    source_type: Nullable(Type.String()),
    demand_score: Type.Number(),
    source: Type.String(),
    observed_at: Type.String(),
    created_at: Type.String(),
  },
  { $id: 'DemandSignal' },
);

export const CreateDemandSignalBody = Type.Object(
  {
    genus: Type.String({ minLength: 1, maxLength: 100 }),
    source_type: Type.Optional(Type.String({ maxLength: 50 })),
    demand_score: Type.Number({
      minimum: 0,
      maximum: DEMAND_SCORE_MAX,
      description: '0 to 1e15',
    }),
    source: Type.String({ minLength: 1, maxLength: 100 }),
    observed_at: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'ISO 8601 timestamp with a time zone; default the time of receipt',
      }),
    ),
  },
  { additionalProperties: false },
);

export const DemandSignalQuery = Type.Object({
  genus: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Only this genus (case-insensitive)',
    }),
  ),
  current: Type.Optional(
    Type.Literal(true, {
      description:
        'With genus: only the latest signal of the genus, as one reading with id "current"; never paged',
    }),
  ),
});
