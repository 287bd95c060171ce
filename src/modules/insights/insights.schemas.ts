import Type from 'typebox';
import { Int, Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

/** What contamination can be grouped by. */
export const CONTAMINATION_GROUPINGS = [
  'operator',
  'location',
  'media_batch',
  'recipe',
  'room',
  'stage',
  'week',
] as const;

/** What multiplication can be grouped by. */
export const MULTIPLICATION_GROUPINGS = [
  'plant',
  'species',
  'stage',
  'media_batch',
  'operator',
] as const;

export const DEFAULT_WINDOW_DAYS = 21;

const since = () =>
  Type.Optional(
    Type.String({
      format: 'date-or-date-time',
      description:
        'Handlings at or after this time (a date: its start, UTC); default a year before until',
    }),
  );
const until = () =>
  Type.Optional(
    Type.String({
      format: 'date-or-date-time',
      description: 'Handlings up to this time (a date: to its end, UTC); default now',
    }),
  );

export const ContaminationInsightQuery = Type.Object({
  by: StringEnum(CONTAMINATION_GROUPINGS),
  since: since(),
  until: until(),
  window_days: Type.Optional(
    Int({
      minimum: 1,
      maximum: 365,
      description: `Days after a handling a contamination counts against it; default ${DEFAULT_WINDOW_DAYS}`,
    }),
  ),
});

export const MultiplicationInsightQuery = Type.Object({
  by: StringEnum(MULTIPLICATION_GROUPINGS),
  since: since(),
  until: until(),
});

export const StagesInsightQuery = Type.Object({
  plant_id: Type.Optional(Uuid({ description: 'Only the explants of this plant (line)' })),
  species: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: "Only the explants of this species' plants (case-insensitive)",
    }),
  ),
  since: Type.Optional(
    Type.String({
      format: 'date-or-date-time',
      description: 'Stages entered at or after this time; default a year before until',
    }),
  ),
  until: Type.Optional(
    Type.String({
      format: 'date-or-date-time',
      description: 'Stages entered up to this time (a date: to its end, UTC); default now',
    }),
  ),
});

const Group = Type.Object({
  id: Nullable(
    Type.String({
      description:
        "The member's, room's, plant's id, or the stage's key; null for location, species, week and for handlings that name none",
    }),
  ),
  label: Type.String({ description: 'Its name; "none recorded" when the handlings name none' }),
});

export const ContaminationInsight = Type.Object({
  group: Group,
  exposures: Type.Integer({ description: 'Handlings of explants in the period' }),
  contaminated: Type.Integer({
    description:
      'Of them, those followed by a contamination of the explant after them, before its next handling, within window_days',
  }),
  rate: Type.Number({ minimum: 0, maximum: 1, description: 'contaminated / exposures' }),
  ci_low: Type.Number({ minimum: 0, maximum: 1, description: 'Wilson 95 % interval, low end' }),
  ci_high: Type.Number({ minimum: 0, maximum: 1, description: 'Wilson 95 % interval, high end' }),
});

const Overall = Type.Object({
  exposures: Type.Integer(),
  contaminated: Type.Integer(),
  rate: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
  ci_low: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
  ci_high: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
});

const PeriodMeta = {
  since: Type.String({ description: 'The period used, ISO 8601 UTC: from' }),
  until: Type.String({ description: 'to (exclusive)' }),
};

export const ContaminationInsightMeta = Type.Object({
  ...PeriodMeta,
  window_days: Type.Integer(),
  overall: Type.Object(Overall.properties, {
    description: "The lab's (or, for a member below manager, their own) figures over every group",
  }),
});

export const MultiplicationInsight = Type.Object({
  group: Group,
  handlings: Type.Integer({
    description: 'Handlings with counts before and after that rate and cycle_days rest on',
  }),
  rate: Type.Number({ description: 'Geometric mean of vessels after / vessels before' }),
  handlings_4w: Type.Integer({
    description: 'Of them, those with a cycle of at least 1 day, that rate_4w rests on',
  }),
  rate_4w: Nullable(
    Type.Number({
      description:
        'Geometric mean of exp(ln(rate) × 28 / cycle); null when no cycle is of 1 day or more',
    }),
  ),
  cycle_days: Type.Number({ description: 'Mean days since the previous handling' }),
});

export const MultiplicationInsightMeta = Type.Object(PeriodMeta);

export const StageLossesMeta = Type.Object(PeriodMeta);

export const StageLosses = Type.Object({
  stage: Type.Object({ key: Type.String(), name: Type.String() }),
  entered: Type.Integer({ description: 'Explants that entered the stage in the period' }),
  moved_on: Type.Integer({ description: 'Of them, those that left it for another stage' }),
  still_there: Type.Integer({ description: 'Those in it now, not ended' }),
  discarded: Type.Integer({
    description: 'Ended in it as discarded, without a contamination discarded',
  }),
  contaminated_discarded: Type.Integer({
    description: 'Ended in it as discarded, with a contamination resolved as discarded',
  }),
  lost: Type.Integer({ description: 'Ended in it as lost' }),
  retired: Type.Integer({ description: 'Ended in it as retired' }),
  median_days: Nullable(
    Type.Number({
      description: 'Median days in the stage of those that moved on; null when none did',
    }),
  ),
});

export const ForecastQuery = Type.Object({
  plant_id: Uuid({ description: 'The line (plant) whose explants are forecast' }),
  target_plantlets: Type.Optional(
    Int({ minimum: 1, maximum: 100_000_000, description: 'Plantlets wanted by `by`' }),
  ),
  by: Type.Optional(
    Type.String({
      format: 'date',
      description: 'The date the plantlets are wanted (UTC); with target_plantlets',
    }),
  ),
  since: Type.Optional(
    Type.String({
      format: 'date-or-date-time',
      description:
        'The rates come from handlings at or after this time; default a year before until',
    }),
  ),
  until: Type.Optional(
    Type.String({
      format: 'date-or-date-time',
      description: 'The rates come from handlings up to this time; default now',
    }),
  ),
});

const RATE_SOURCES = ['line', 'species', 'lab'] as const;

const Week = Type.Object({
  week: Type.Integer({ description: 'Weeks from today (0: today)' }),
  date: Type.String({ format: 'date' }),
  vessels: Type.Number(),
  vessels_low: Type.Number({ description: 'With the low rate' }),
  vessels_high: Type.Number({ description: 'With the high rate' }),
  plantlets: Nullable(Type.Number({ description: 'vessels × plantlets_per_vessel' })),
});

export const Forecast = Type.Object({
  plant: Type.Object({ id: Uuid(), label: Type.String() }),
  current_vessels: Type.Integer({
    description:
      "Vessels of the line's living explants now (current_count, not ended, not archived)",
  }),
  rates: Type.Object({
    source: StringEnum(RATE_SOURCES, {
      description:
        "Whose handlings of the last year the rates come from: the line's own, else its species', else the lab's",
    }),
    handlings: Type.Integer({ description: 'How many 4-week rates the rate rests on' }),
    rate_4w: Type.Number({ description: 'Geometric mean 4-week multiplication rate' }),
    rate_4w_low: Type.Number({ description: 'exp(mean − sd) of the ln 4-week rates' }),
    rate_4w_high: Type.Number({ description: 'exp(mean + sd) of the ln 4-week rates' }),
    plantlets_per_vessel: Nullable(
      Type.Number({
        description: 'Mean plantlets per vessel of those handlings that counted both',
      }),
    ),
  }),
  plan: Nullable(
    Type.Object({
      target_plantlets: Type.Integer(),
      by: Type.String({ format: 'date' }),
      vessels_needed: Type.Integer({ description: 'Vessels that hold the target on `by`' }),
      vessels_to_start: Type.Integer({
        description: 'Vessels to start today to reach them by `by`',
      }),
      vessels_to_start_low: Type.Integer({ description: 'The same with the high rate' }),
      vessels_to_start_high: Type.Integer({ description: 'The same with the low rate' }),
      start_by: Nullable(
        Type.String({
          format: 'date',
          description:
            "The last day to start multiplying the line's current vessels to reach vessels_needed by `by`; null when they cannot (none, or a rate of 1 or less)",
        }),
      ),
      late: Type.Boolean({ description: 'start_by has passed (or there is none)' }),
    }),
  ),
  weeks: Type.Array(Week, {
    description:
      'Week by week from today to `by` (with a target: starting from vessels_to_start), else the next 12 weeks of the current vessels',
  }),
});

/* The rows of the CSV answers: the group flattened into two columns. */

const GroupColumns = {
  group_id: Nullable(Type.String()),
  group_label: Type.String(),
};

export const ContaminationCsvRow = Type.Object({
  ...GroupColumns,
  ...Type.Omit(ContaminationInsight, ['group']).properties,
});

export const MultiplicationCsvRow = Type.Object({
  ...GroupColumns,
  ...Type.Omit(MultiplicationInsight, ['group']).properties,
});

export const StageLossesCsvRow = Type.Object({
  stage_key: Type.String(),
  stage_name: Type.String(),
  ...Type.Omit(StageLosses, ['stage']).properties,
});

export const ForecastCsvRow = Week;

/* The drill-down: the exposures behind a contamination group. */

/** The `group` that names the exposures whose handlings name none. */
export const NONE_GROUP = 'none';

export const ExposuresQuery = Type.Object({
  by: StringEnum(CONTAMINATION_GROUPINGS),
  group: Type.String({
    minLength: 1,
    maxLength: 200,
    description:
      "The group's id (member, room, media batch, recipe, stage key); for location and week its " +
      `label; "${NONE_GROUP}" for the exposures that name none ("none recorded")`,
  }),
  since: since(),
  until: until(),
  window_days: ContaminationInsightQuery.properties.window_days,
  contaminated: Type.Optional(
    Type.Boolean({
      description: 'true: only the contaminated exposures (within window_days); false: the others',
    }),
  ),
});

const NamedOrNull = (what: string) =>
  Nullable(
    Type.Object(
      { id: Type.String(), label: Type.String() },
      { description: `${what}; null when none` },
    ),
  );

export const EXPOSURE_KINDS = ['initiation', 'transfer', 'split', 'merge'] as const;

export const Exposure = Type.Object({
  explant_id: Uuid(),
  explant_label: Type.String(),
  plant_id: Nullable(Uuid()),
  kind: StringEnum(EXPOSURE_KINDS, {
    description:
      'initiation: the explant made; transfer; split: a split of it or its making by one; merge: its making by a merge',
  }),
  handled_at: Type.String({ description: 'When the handling happened, ISO 8601 UTC' }),
  operator: Type.Object(
    {
      id: Nullable(Type.String()),
      label: Type.String(),
    },
    { description: 'Who recorded it; id null and "none recorded" when unknown' },
  ),
  location: Nullable(Type.String({ description: "The transfer's from_location (the hood)" })),
  media_batch: NamedOrNull('The medium batch it put the cultures on'),
  recipe: NamedOrNull("That batch's recipe"),
  room: NamedOrNull('The room of the stage the explant was in'),
  stage: Nullable(Type.String({ description: 'The key of the stage the explant was in' })),
  week: Type.String({ description: 'Its ISO 8601 week, 2026-W05' }),
  contaminated: Type.Boolean({ description: 'Contaminated within window_days' }),
  contamination_id: Nullable(
    Type.String({ description: 'The contamination that counts against it, when contaminated' }),
  ),
});
