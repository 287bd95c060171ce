import Type from 'typebox';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

export const TASK_STATUSES = [
  'backlog',
  'todo',
  'in_progress',
  'waiting_blocked',
  'review',
  'done',
] as const;

export const TASK_CATEGORIES = [
  'media_prep',
  'transfer',
  'contamination',
  'subculture',
  'sop_review',
  'acclimation',
  'cleaning',
  'monitoring',
  'other',
] as const;

export const TASK_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;

export const PRIORITY_SOURCES = ['default', 'auto', 'manual'] as const;

export const TASK_ENTITY_TYPES = ['plant', 'explant'] as const;

/**
 * `priority_rank` is a double: fractional ranks (placing a task between two
 * others) and epoch-millisecond ranks both fit, every integer in range exactly.
 */
export const PRIORITY_RANK_MAX = 1e15;

export const EntityLink = Type.Object({
  entity_type: StringEnum(TASK_ENTITY_TYPES),
  entity_id: Uuid(),
});

export const Task = Type.Object(
  {
    id: Uuid(),
    title: Type.String(),
    status: Type.String({ description: `workflow_status: ${TASK_STATUSES.join(', ')}` }),
    due_date: Nullable(Type.String()),
    assigned_to: Nullable(Type.String({ description: 'id of an active member' })),
    priority: Nullable(Type.String({ description: TASK_PRIORITIES.join(', ') })),
    priority_rank: Nullable(Type.Number()),
    priority_source: Type.String({
      description:
        'default (no order set), auto (set through the API), manual (placed by hand; kept until released)',
    }),
    category: Nullable(Type.String({ description: TASK_CATEGORIES.join(', ') })),
    created_at: Nullable(Type.String()),
    entity_link: Type.Optional(
      Nullable(EntityLink, {
        description: 'The linked plant or explant; only in single-task responses, not in lists',
      }),
    ),
    category_label: Nullable(Type.String({ description: 'Only with category other' })),
    is_all_day: Type.Boolean(),
    notes: Nullable(Type.String()),
    genus: Nullable(Type.String()),
    completed_at: Nullable(
      Type.String({ description: 'When the task was last moved to done; null unless done' }),
    ),
    completed_by: Nullable(Type.String({ description: 'Who moved it to done; null unless done' })),
    updated_at: Type.String(),
  },
  { $id: 'Task' },
);

const title = () => Type.String({ minLength: 1, maxLength: 300 });
const dueDate = (options: Record<string, unknown> = {}) =>
  Type.String({
    format: 'date-time',
    description: 'ISO 8601 timestamp with a time zone',
    ...options,
  });
const notes = () => Type.String({ maxLength: 5000 });
const rank = () =>
  Type.Number({
    minimum: -PRIORITY_RANK_MAX,
    maximum: PRIORITY_RANK_MAX,
    description: 'Order of the task; -1e15 to 1e15',
  });
const genus = () => Type.String({ minLength: 1, maxLength: 100 });
const categoryLabel = () =>
  Nullable(
    Type.String({
      minLength: 1,
      maxLength: 60,
      description: 'Only with category other (else 422); null clears it',
    }),
  );

export const CreateTaskBody = Type.Object(
  {
    title: title(),
    due_date: Type.Optional(dueDate()),
    is_all_day: Type.Optional(Type.Boolean()),
    category: Type.Optional(StringEnum(TASK_CATEGORIES, { default: 'media_prep' })),
    category_label: Type.Optional(categoryLabel()),
    notes: Type.Optional(notes()),
    priority: Type.Optional(StringEnum(TASK_PRIORITIES)),
    priority_rank: Type.Optional(Nullable(rank())),
    workflow_status: Type.Optional(StringEnum(TASK_STATUSES, { default: 'todo' })),
    assigned_to: Type.Optional(Uuid({ description: 'An active member of the workspace (422)' })),
    genus: Type.Optional(genus()),
    entity_type: Type.Optional(StringEnum(TASK_ENTITY_TYPES)),
    entity_id: Type.Optional(
      Uuid({ description: 'With entity_type: a plant or explant of the workspace (422)' }),
    ),
  },
  { additionalProperties: false },
);

export const UpdateTaskBody = Type.Object(
  {
    title: Type.Optional(title()),
    due_date: Type.Optional(Nullable(dueDate({ description: 'null clears it' }))),
    is_all_day: Type.Optional(Type.Boolean()),
    category: Type.Optional(StringEnum(TASK_CATEGORIES)),
    category_label: Type.Optional(categoryLabel()),
    notes: Type.Optional(Nullable(notes())),
    priority: Type.Optional(
      Type.Unsafe<(typeof TASK_PRIORITIES)[number] | null>({
        type: ['string', 'null'],
        enum: [...TASK_PRIORITIES, null],
        description: 'null clears it',
      }),
    ),
    priority_rank: Type.Optional(Nullable(rank())),
    release: Type.Optional(
      Type.Boolean({ description: 'true hands a manual placement back before the order write' }),
    ),
    workflow_status: Type.Optional(StringEnum(TASK_STATUSES)),
    assigned_to: Type.Optional(
      Nullable(Uuid({ description: 'An active member of the workspace (422); null unassigns' })),
    ),
    genus: Type.Optional(Nullable(genus())),
    entity_type: Type.Optional(StringEnum(TASK_ENTITY_TYPES)),
    entity_id: Type.Optional(Uuid()),
    clear_entity_link: Type.Optional(Type.Boolean({ description: 'true unlinks the task' })),
  },
  { additionalProperties: false },
);

export const TaskParams = Type.Object({ id: Uuid() });

export const TaskQuery = Type.Object({
  status: Type.Optional(StringEnum(TASK_STATUSES)),
  assigned_to: Type.Optional(Uuid()),
  due_before: Type.Optional(
    Type.String({
      format: 'date-or-date-time',
      description:
        'Only tasks due before this time (a date: its midnight UTC); tasks without a due date are left out',
    }),
  ),
  open: Type.Optional(
    Type.Boolean({ description: 'true: only tasks not done; false: only done ones' }),
  ),
});

export const UpdateTaskMeta = Type.Object({
  priority_write: Type.Object({
    applied: Type.Boolean(),
    reason: Type.Optional(Type.Literal('manual_override')),
    priority_source: StringEnum(PRIORITY_SOURCES),
    message: Type.String(),
  }),
  skipped: Type.Array(Type.String(), {
    description: 'Order fields sent but not written (kept manual placement)',
  }),
});
