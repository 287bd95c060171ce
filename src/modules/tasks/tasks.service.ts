import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { changedValues, diffFields } from '../../lib/changes.js';
import { errors } from '../../kernel/errors.js';
import { toUtc } from '../../kernel/formats.js';
import { newId } from '../../kernel/ids.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { isActiveMember } from '../identity/index.js';
import { notify } from '../notifications/index.js';
import { listTaskRows, tasks, type TaskRow } from './tasks.repository.js';
import type {
  CreateTaskBody,
  Task,
  TaskQuery,
  UpdateTaskBody,
  UpdateTaskMeta,
} from './tasks.schemas.js';
import { indexForSearch, indexNewForSearch, type SearchDocument } from '../search/index.js';

export type TaskRecord = Static<typeof Task>;
export type CreateTaskInput = Static<typeof CreateTaskBody>;
export type UpdateTaskInput = Static<typeof UpdateTaskBody>;
export type TaskUpdateMeta = Static<typeof UpdateTaskMeta>;
type EntityType = 'plant' | 'explant';
type PrioritySource = TaskUpdateMeta['priority_write']['priority_source'];

/**
 * A task as the API answers it. `entity_link` only in single-task responses
 * (create, get, update); lists leave it out.
 */
export function presentTask(row: TaskRow, withLink: boolean): TaskRecord {
  const link =
    row.entity_type === null || row.entity_id === null
      ? null
      : { entity_type: row.entity_type as EntityType, entity_id: row.entity_id };
  return {
    id: row.id,
    title: row.title,
    status: row.workflow_status,
    due_date: row.due_date,
    assigned_to: row.assigned_to,
    priority: row.priority,
    priority_rank: row.priority_rank,
    priority_source: row.priority_source,
    category: row.category,
    created_at: row.created_at,
    ...(withLink ? { entity_link: link } : {}),
    category_label: row.category_label,
    is_all_day: row.is_all_day === 1,
    notes: row.notes,
    genus: row.genus,
    completed_at: row.completed_at,
    completed_by: row.completed_by,
    updated_at: row.updated_at,
  };
}

/** The due-date columns: the date itself and the list's sort key (undated tasks last). */
function dueColumns(dueDate: string | null): Pick<TaskRow, 'due_date' | 'undated' | 'due_key'> {
  return { due_date: dueDate, undated: dueDate === null ? 1 : 0, due_key: dueDate ?? '' };
}

/**
 * A sent due date in UTC. A zone can push a date at the edge of the calendar past
 * year 9999 or before year 0, which no longer sorts as text: refused.
 */
function dueDateOf(value: string): string {
  const utc = toUtc(value);
  if (!/^\d{4}-/.test(utc)) {
    throw errors.validation('due_date: must fall within the years 0000 to 9999 in UTC');
  }
  return utc;
}

/** `category_label` names an `other` category and nothing else (resources.md decision 14). */
function requireLabelFits(category: string, label: string | null | undefined): void {
  if (label !== null && label !== undefined && category !== 'other') {
    throw errors.validation(
      `category_label: only with category "other" (the category is "${category}")`,
    );
  }
}

/** Another workspace's member, a removed one and an unknown id get the same answer. */
async function requireAssignee(db: Db, workspaceId: string, memberId: string): Promise<void> {
  if (!(await isActiveMember(db, workspaceId, memberId))) {
    throw errors.validation('assigned_to: no active member with this id in the workspace');
  }
}

/**
 * The plant or explant a body links, checked: both of `entity_type` and
 * `entity_id` or neither (undefined). A record of another workspace is answered
 * exactly as an id that exists nowhere.
 */
async function linkOf(
  db: Db,
  records: RecordLookup,
  workspaceId: string,
  input: { entity_type?: EntityType; entity_id?: string },
): Promise<{ entity_type: EntityType; entity_id: string } | undefined> {
  const { entity_type: type, entity_id: id } = input;
  if (type === undefined && id === undefined) return undefined;
  if (type === undefined || id === undefined) {
    throw errors.validation('entity_type, entity_id: send both or neither');
  }
  if ((await records.find(db, type, workspaceId, id)) === undefined) {
    throw errors.validation(`entity_id: no ${type} with this id in the workspace`);
  }
  return { entity_type: type, entity_id: id };
}

/** Whether a task carries an order: a priority or a rank. */
const hasOrder = (priority: string | null, rank: number | null) =>
  priority !== null || rank !== null;

/**
 * Creates a task as the key's owner. An order sent here (priority or rank) is
 * an automatic one (`priority_source` auto); without one it is `default`. Moving
 * straight to done records the completion.
 */
export async function createTask(
  trx: Trx,
  // A background pass acts as nobody (memberId null): the task is the lab's.
  principal: Pick<Principal, 'workspaceId' | 'memberId'>,
  input: CreateTaskInput,
  records: RecordLookup,
  now: string,
): Promise<TaskRecord> {
  const workspaceId = principal.workspaceId;
  const category = input.category ?? 'media_prep';
  requireLabelFits(category, input.category_label);
  const dueDate = input.due_date === undefined ? null : dueDateOf(input.due_date);
  if (input.assigned_to !== undefined) await requireAssignee(trx, workspaceId, input.assigned_to);
  const link = await linkOf(trx, records, workspaceId, input);
  const status = input.workflow_status ?? 'todo';
  const priority = input.priority ?? null;
  const rank = input.priority_rank ?? null;
  const done = status === 'done';
  const row: TaskRow = {
    id: newId(),
    workspace_id: workspaceId,
    title: input.title,
    notes: input.notes ?? null,
    category,
    category_label: input.category_label ?? null,
    workflow_status: status,
    priority,
    priority_rank: rank,
    priority_source: hasOrder(priority, rank) ? 'auto' : 'default',
    ...dueColumns(dueDate),
    is_all_day: input.is_all_day === true ? 1 : 0,
    assigned_to: input.assigned_to ?? null,
    genus: input.genus ?? null,
    entity_type: link?.entity_type ?? null,
    entity_id: link?.entity_id ?? null,
    completed_at: done ? now : null,
    completed_by: done ? principal.memberId : null,
    created_by: principal.memberId,
    created_at: now,
    updated_at: now,
  };
  await tasks.insert(trx, row);
  await indexNewForSearch(trx, taskDocument(row));
  await notifyAssignee(trx, row, principal.memberId, now);
  return presentTask(row, true);
}

/** What GET /search finds of a task. */
function taskDocument(row: TaskRow): SearchDocument {
  return {
    kind: 'task',
    id: row.id,
    workspaceId: row.workspace_id,
    title: row.title,
    subtitle: row.category_label ?? row.category,
    names: [row.title],
    fields: [row.notes, row.category_label, row.genus],
    archived: false,
  };
}

/** Tells a task's new assignee (not one who assigned it to themselves), in the write's transaction. */
async function notifyAssignee(
  trx: Trx,
  row: TaskRow,
  actorId: string | null,
  now: string,
): Promise<void> {
  if (row.assigned_to === null) return;
  await notify(
    trx,
    row.workspace_id,
    [
      {
        kind: 'task_assigned',
        // Each assignment is an event of its own: assigned again later, told again.
        eventKey: `task_assigned:${row.id}:${now}`,
        record: { type: 'task', id: row.id, label: row.title },
        actorId,
        to: { members: [row.assigned_to] },
      },
    ],
    now,
  );
}

export async function getTask(db: Db, workspaceId: string, id: string): Promise<TaskRecord> {
  const row = await tasks.find(db, workspaceId, id);
  if (row === undefined) throw errors.notFound('Task');
  return presentTask(row, true);
}

/** Earliest due first (undated last, equal dates in creation order); no `entity_link`. */
export async function listTasks(
  db: Db,
  workspaceId: string,
  query: Static<typeof TaskQuery>,
  page: PageRequest,
): Promise<Page<TaskRecord>> {
  const filters = {
    ...(query.status === undefined ? {} : { status: query.status }),
    ...(query.assigned_to === undefined ? {} : { assignedTo: query.assigned_to }),
    ...(query.due_before === undefined ? {} : { dueBefore: toUtc(query.due_before) }),
    ...(query.open === undefined ? {} : { open: query.open }),
  };
  const { items, nextKey } = await listTaskRows(db, workspaceId, filters, page);
  return { items: items.map((row) => presentTask(row, false)), nextKey };
}

const ORDER_FIELDS = ['priority', 'priority_rank'] as const;

/**
 * What a PATCH does to the task's order. Orders written through the API are
 * automatic; a placement made by hand (`manual`) is kept, and the order fields
 * skipped, unless the same PATCH sends `release: true`, which hands the order
 * back first. No order field and no release: no order change, no meta.
 */
function planOrder(
  row: TaskRow,
  input: UpdateTaskInput,
): { update: Partial<TaskRow>; meta: TaskUpdateMeta | undefined } {
  const sent = ORDER_FIELDS.filter((field) => input[field] !== undefined);
  const release = input.release === true;
  if (sent.length === 0 && !release) return { update: {}, meta: undefined };
  const manual = row.priority_source === 'manual';
  if (manual && !release) {
    return {
      update: {},
      meta: {
        priority_write: {
          applied: false,
          reason: 'manual_override',
          priority_source: 'manual',
          message:
            'Not applied: this task was placed by hand and keeps its order; send release: true ' +
            'with the order to hand the placement back and apply it',
        },
        skipped: sent,
      },
    };
  }
  const priority = input.priority === undefined ? row.priority : input.priority;
  const rank = input.priority_rank === undefined ? row.priority_rank : input.priority_rank;
  const source: PrioritySource = hasOrder(priority, rank) ? 'auto' : 'default';
  let message = `Order applied (priority_source ${source})`;
  if (release && manual) {
    message =
      sent.length > 0
        ? `Manual placement released; the order was applied (priority_source ${source})`
        : 'Manual placement released; the task keeps its priority and rank until an order is written';
  } else if (release && sent.length === 0) {
    message = 'Nothing to release: the task was not placed by hand';
  }
  return {
    update: { priority, priority_rank: rank, priority_source: source },
    meta: { priority_write: { applied: true, priority_source: source, message }, skipped: [] },
  };
}

/** The columns a PATCH writes, besides the order; checks everything before it returns. */
async function planFields(
  db: Db,
  principal: Principal,
  row: TaskRow,
  input: UpdateTaskInput,
  records: RecordLookup,
  now: string,
): Promise<Partial<TaskRow>> {
  const workspaceId = principal.workspaceId;
  const update: Partial<TaskRow> = {};
  if (input.title !== undefined) update.title = input.title;
  if (input.notes !== undefined) update.notes = input.notes;
  if (input.genus !== undefined) update.genus = input.genus;
  if (input.is_all_day !== undefined) update.is_all_day = input.is_all_day ? 1 : 0;

  const category = input.category ?? row.category;
  requireLabelFits(category, input.category_label);
  if (input.category !== undefined) update.category = category;
  if (input.category_label !== undefined) update.category_label = input.category_label;
  // Leaving `other` drops its label: it named the category the task no longer has.
  if (category !== 'other') update.category_label = null;

  if (input.due_date !== undefined) {
    Object.assign(update, dueColumns(input.due_date === null ? null : dueDateOf(input.due_date)));
  }
  if (input.assigned_to !== undefined) {
    if (input.assigned_to !== null) await requireAssignee(db, workspaceId, input.assigned_to);
    update.assigned_to = input.assigned_to;
  }

  if (input.clear_entity_link === true) {
    if (input.entity_type !== undefined || input.entity_id !== undefined) {
      throw errors.validation('clear_entity_link: not with entity_type and entity_id');
    }
    update.entity_type = null;
    update.entity_id = null;
  } else {
    const link = await linkOf(db, records, workspaceId, input);
    if (link !== undefined) Object.assign(update, link);
  }

  if (input.workflow_status !== undefined) {
    const done = input.workflow_status === 'done';
    update.workflow_status = input.workflow_status;
    // Done records when and by whom; done again keeps the first completion; reopening clears it.
    if (done && row.workflow_status !== 'done') {
      update.completed_at = now;
      update.completed_by = principal.memberId;
    } else if (!done) {
      update.completed_at = null;
      update.completed_by = null;
    }
  }
  return update;
}

const WRITABLE = [
  'title',
  'notes',
  'genus',
  'is_all_day',
  'category',
  'category_label',
  'due_date',
  'undated',
  'due_key',
  'assigned_to',
  'entity_type',
  'entity_id',
  'workflow_status',
  'completed_at',
  'completed_by',
  'priority',
  'priority_rank',
  'priority_source',
] as const;

/**
 * Partial update of a task, by any member who may write tasks. The task is
 * locked, every check runs before the one write, and a PATCH that changes
 * nothing writes nothing. `meta` answers an order change (see `planOrder`).
 */
export async function updateTask(
  trx: Trx,
  principal: Principal,
  id: string,
  input: UpdateTaskInput,
  records: RecordLookup,
  now: string,
): Promise<{ task: TaskRecord; meta: TaskUpdateMeta | undefined }> {
  const workspaceId = principal.workspaceId;
  const row = await tasks.lock(trx, workspaceId, id);
  if (row === undefined) throw errors.notFound('Task');
  const fields = await planFields(trx, principal, row, input, records, now);
  const order = planOrder(row, input);
  const changes = diffFields(row, { ...fields, ...order.update }, WRITABLE);
  if (Object.keys(changes).length === 0) return { task: presentTask(row, true), meta: order.meta };
  const update = { ...(changedValues(changes) as Partial<TaskRow>), updated_at: now };
  await tasks.update(trx, workspaceId, id, update);
  const updated = { ...row, ...update };
  const searched = ['title', 'notes', 'category', 'category_label', 'genus'] as const;
  if (searched.some((field) => field in update)) {
    await indexForSearch(trx, taskDocument(updated));
  }
  if (changes.assigned_to !== undefined) {
    await notifyAssignee(trx, updated, principal.memberId, now);
  }
  return { task: presentTask(updated, true), meta: order.meta };
}

/**
 * A placement made by hand, as the lab's app makes one when a person drags a
 * task into place (Vitro serves no app: the demo lab uses this). It is kept
 * against orders written through the API until a PATCH sends `release: true`.
 */
export async function placeTaskByHand(
  trx: Trx,
  workspaceId: string,
  id: string,
  order: { priority: string | null; priority_rank: number | null },
  now: string,
): Promise<TaskRecord> {
  const row = await tasks.lock(trx, workspaceId, id);
  if (row === undefined) throw errors.notFound('Task');
  const update = { ...order, priority_source: 'manual', updated_at: now };
  await tasks.update(trx, workspaceId, id, update);
  return presentTask({ ...row, ...update }, true);
}
