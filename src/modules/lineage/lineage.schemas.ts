import Type from 'typebox';
import { Count, Int, Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';
import { Explant, EXPLANT_STATUSES } from '../explants/index.js';

/** The most generations a lineage read walks (and a recall reaches). */
export const MAX_DEPTH = 50;

/** How a child came from its parent. */
export const EDGE_KINDS = ['split', 'merge'] as const;

const StageName = () =>
  Type.String({
    minLength: 1,
    maxLength: 50,
    description:
      "A stage of the lab's explant list, by name or key; default: the parent's current stage",
  });

const Daughter = Type.Object(
  {
    vessel_count: Count({ minimum: 1, description: 'Vessels that leave the parent for it' }),
    plantlet_count: Type.Optional(
      Count({ description: 'Plantlets that leave the parent for it (default none counted)' }),
    ),
    label: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "Default the parent's label with .1, .2, … after the children it has",
      }),
    ),
    initial_stage: Type.Optional(StageName()),
    room_id: Type.Optional(
      Uuid({ description: "The room of its first stage (default the parent's room)" }),
    ),
    media_batch_id: Type.Optional(
      Uuid({
        description:
          'The medium batch it goes onto: a batch of the workspace not expired or discarded (422)',
      }),
    ),
    notes: Type.Optional(Type.String({ maxLength: 5000 })),
  },
  { additionalProperties: false },
);

export const SplitBody = Type.Object(
  {
    daughters: Type.Array(Daughter, { minItems: 1, maxItems: 100 }),
    notes: Type.Optional(
      Type.String({ maxLength: 5000, description: "The notes of the parent's transfer" }),
    ),
  },
  { additionalProperties: false },
);

export const SplitResult = Type.Object({
  parent: Explant,
  daughters: Type.Array(Explant),
});

export const MergeBody = Type.Object(
  {
    explant_ids: Type.Array(Uuid(), {
      minItems: 1,
      maxItems: 100,
      uniqueItems: true,
      description: 'The explants pooled: all their vessels and plantlets go to the child',
    }),
    label: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'The label of a new explant made of them (or send into_explant_id)',
      }),
    ),
    into_explant_id: Type.Optional(
      Uuid({
        description:
          'An explant they are pooled into instead of a new one; it may not descend from any of them',
      }),
    ),
    initial_stage: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 50,
        description:
          "A new explant's first stage, by name or key; default the stage the pooled ones share, if they do",
      }),
    ),
    room_id: Type.Optional(Uuid({ description: "The room of a new explant's first stage" })),
    media_batch_id: Type.Optional(
      Uuid({
        description:
          'The medium batch the pooled explant goes onto: a batch of the workspace not expired or discarded (422)',
      }),
    ),
    notes: Type.Optional(Type.String({ maxLength: 5000 })),
  },
  { additionalProperties: false },
);

export const MergeResult = Type.Object({
  child: Explant,
  parents: Type.Array(Explant),
});

export const ExplantParams = Type.Object({ id: Uuid() });
export const PlantParams = Type.Object({ id: Uuid() });

export const LineageQuery = Type.Object({
  direction: Type.Optional(
    StringEnum(['ancestors', 'descendants'], { description: 'Default descendants' }),
  ),
  depth: Type.Optional(
    Int({
      minimum: 1,
      maximum: MAX_DEPTH,
      description: `Generations walked; default ${MAX_DEPTH}`,
    }),
  ),
});

export const PlantLineageQuery = Type.Object({
  depth: Type.Optional(
    Int({
      minimum: 1,
      maximum: MAX_DEPTH,
      description: `Generations walked; default ${MAX_DEPTH}`,
    }),
  ),
});

const LineageNode = Type.Object({
  id: Uuid(),
  label: Nullable(Type.String()),
  stage: Nullable(Type.String({ description: "Its current stage's key" })),
  stage_name: Nullable(Type.String()),
  status: Type.String(),
  generation: Type.Integer({
    description:
      'Generations from the record asked about (0: the explant itself; 1: its parents or children, or a plant’s first explants)',
  }),
  plant_id: Nullable(Uuid()),
  current_count: Nullable(Type.Integer()),
  plantlet_count: Nullable(Type.Integer()),
  created_at: Type.String(),
  archived_at: Nullable(Type.String()),
});

const LineageEdge = Type.Object({
  parent_id: Uuid(),
  child_id: Uuid(),
  kind: Type.String({ description: EDGE_KINDS.join(', ') }),
  transfer_id: Nullable(Uuid({ description: "The parent's transfer that made the child" })),
  occurred_at: Type.String(),
  recorded_by: Nullable(Uuid({ description: 'Who did it' })),
  room_id: Nullable(Uuid({ description: "The child's room" })),
  media_batch_id: Nullable(Uuid({ description: 'The medium batch the child went onto' })),
});

export const Lineage = Type.Object({
  nodes: Type.Array(LineageNode),
  edges: Type.Array(LineageEdge),
});

export const RecallBody = Type.Object(
  {
    status: Type.Optional(
      StringEnum(EXPLANT_STATUSES, {
        description: 'The status they are put in; default quarantined',
      }),
    ),
    reason: Type.String({ minLength: 1, maxLength: 1000 }),
    generation: Type.Optional(
      Int({
        minimum: 0,
        maximum: MAX_DEPTH,
        description:
          'Only this generation (0: the explant itself; 1: its children, or a plant’s first explants); default all',
      }),
    ),
    dry_run: Type.Optional(
      Type.Boolean({ description: 'Say how many and which, and change nothing' }),
    ),
  },
  { additionalProperties: false },
);

export const RecallResult = Type.Object({
  count: Type.Integer(),
  explant_ids: Type.Array(Uuid()),
  dry_run: Type.Boolean(),
});
