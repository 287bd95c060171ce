import type { Db } from '../../db/database.js';
import { fetchPage, type Ordering, type Page, type PageRequest } from '../../db/pages.js';
import type { TaskTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';
import type { RecordSource } from '../../kernel/record-lookup.js';

export type TaskRow = TaskTable;

const COLUMNS = [
  'id',
  'workspace_id',
  'title',
  'notes',
  'category',
  'category_label',
  'workflow_status',
  'priority',
  'priority_rank',
  'priority_source',
  'due_date',
  'undated',
  'due_key',
  'is_all_day',
  'assigned_to',
  'genus',
  'entity_type',
  'entity_id',
  'completed_at',
  'completed_by',
  'created_by',
  'created_at',
  'updated_at',
] as const;

/** Tasks by id, locked for a write, inserted, updated. */
export const tasks = workspaceTable('tasks', COLUMNS);

/** How other modules find and lock tasks (the record lookup's source of kind `task`). */
export const taskRecords: RecordSource<TaskRow> = tasks;

/** Earliest due first, undated tasks last; equal due dates in creation order (the id). */
const DUE_FIRST: Ordering = { columns: ['undated', 'due_key', 'id'], direction: 'asc' };

export interface TaskFilters {
  readonly status?: string;
  readonly assignedTo?: string;
  /** Due strictly before this time; undated tasks never match. */
  readonly dueBefore?: string;
  /** Not done (true) or done (false). */
  readonly open?: boolean;
}

export function listTaskRows(
  db: Db,
  workspaceId: string,
  filters: TaskFilters,
  page: PageRequest,
): Promise<Page<TaskRow>> {
  let query = db.selectFrom('tasks').select(COLUMNS).where('workspace_id', '=', workspaceId);
  if (filters.status !== undefined) query = query.where('workflow_status', '=', filters.status);
  if (filters.assignedTo !== undefined) {
    query = query.where('assigned_to', '=', filters.assignedTo);
  }
  // On the order's own index: the dated tasks (undated = 0) due before the time.
  if (filters.dueBefore !== undefined) {
    query = query.where('undated', '=', 0).where('due_key', '<', filters.dueBefore);
  }
  if (filters.open !== undefined) {
    query = query.where('workflow_status', filters.open ? '!=' : '=', 'done');
  }
  return fetchPage(query, DUE_FIRST, page);
}

/** What the reminders pass needs of a task. */
export type DueTaskRow = Pick<TaskRow, 'id' | 'title' | 'assigned_to' | 'due_date' | 'is_all_day'>;

/** Assigned tasks not done, due in (from, to] (index tasks_workspace_due). */
export function assignedTasksDueIn(
  db: Db,
  workspaceId: string,
  from: string,
  to: string,
): Promise<DueTaskRow[]> {
  return db
    .selectFrom('tasks')
    .select(['id', 'title', 'assigned_to', 'due_date', 'is_all_day'])
    .where('workspace_id', '=', workspaceId)
    .where('undated', '=', 0)
    .where('due_key', '>', from)
    .where('due_key', '<=', to)
    .where('assigned_to', 'is not', null)
    .where('workflow_status', '!=', 'done')
    .execute();
}
