import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { Routes } from '../../kernel/routes/index.js';
import {
  CreateTaskBody,
  Task,
  TaskParams,
  TaskQuery,
  UpdateTaskBody,
  UpdateTaskMeta,
} from './tasks.schemas.js';
import { createTask, getTask, listTasks, updateTask } from './tasks.service.js';

export function registerTaskRoutes(routes: Routes, deps: { records: RecordLookup }): void {
  routes.list({
    url: '/api/v1/tasks',
    operationId: 'listTasks',
    tags: ['Tasks'],
    summary: 'List tasks',
    description:
      'Earliest due first, tasks without a due date last; equal due dates in creation order. ' +
      'Filters: `status`, `assigned_to`, and (beyond the wire format) `due_before` (due or ' +
      'overdue by then) and `open`. Items carry no `entity_link` (get the task for it). ' +
      'The order is by due date only: demand signals do not reorder it (see GET /tasks/demand).',
    scope: 'read:tasks',
    failureCode: 'TASK_QUERY_FAILED',
    querystring: TaskQuery,
    paging: { list: 'tasks', csv: true },
    item: Task,
    handler: (req, ctx) => listTasks(ctx.db, ctx.principal.workspaceId, req.query, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/tasks',
    operationId: 'createTask',
    tags: ['Tasks'],
    summary: 'Create a task',
    description:
      'Created as the key owner; `workflow_status` (answered as `status`) default todo, `category` ' +
      'default media_prep. `category_label` only with category other. `assigned_to` must be an ' +
      'active member, `entity_type` + `entity_id` (both or neither) a plant or explant of the ' +
      'workspace (422). An order sent here (`priority`, `priority_rank`) counts as automatic ' +
      '(`priority_source` auto). Created as done, the task records `completed_at`/`completed_by`.',
    scope: 'write:tasks',
    failureCode: 'TASK_CREATE_FAILED',
    body: CreateTaskBody,
    data: Task,
    handler: async (req, ctx) => ({
      data: await createTask(ctx.trx, ctx.principal, req.body, deps.records, ctx.now),
    }),
  });

  routes.read({
    url: '/api/v1/tasks/:id',
    operationId: 'getTask',
    tags: ['Tasks'],
    summary: 'Get a task',
    description: 'With `entity_link`, the linked plant or explant (null when none).',
    scope: 'read:tasks',
    failureCode: 'TASK_QUERY_FAILED',
    params: TaskParams,
    notFound: 'Task',
    data: Task,
    handler: async (req, ctx) => ({
      data: await getTask(ctx.db, ctx.principal.workspaceId, req.params.id),
    }),
  });

  routes.write({
    method: 'PATCH',
    url: '/api/v1/tasks/:id',
    operationId: 'updateTask',
    tags: ['Tasks'],
    summary: 'Update a task',
    description:
      'Partial; any member who may write tasks may update any task of the workspace. null clears ' +
      '`due_date`, `notes`, `assigned_to` (unassigns), `genus`, `category_label`, `priority`, ' +
      '`priority_rank`; `clear_entity_link: true` unlinks; a category other than other drops ' +
      '`category_label`. `workflow_status` done completes the task (`completed_at`, ' +
      '`completed_by`); any other status reopens it (both null). An order sent here (`priority`, ' +
      '`priority_rank`) is an automatic write: a task placed by hand (`priority_source` manual) ' +
      'keeps its order unless `release: true` is sent, and `meta.priority_write` says whether the ' +
      'order was applied (`meta.skipped` names the fields not written).',
    scope: 'write:tasks',
    failureCode: 'TASK_UPDATE_FAILED',
    params: TaskParams,
    notFound: 'Task',
    body: UpdateTaskBody,
    data: Task,
    meta: UpdateTaskMeta,
    // A client may send back the record it read.
    current: (req, ctx) => getTask(ctx.trx, ctx.principal.workspaceId, req.params.id),
    handler: async (req, ctx) => {
      const { task, meta } = await updateTask(
        ctx.trx,
        ctx.principal,
        req.params.id,
        req.body,
        deps.records,
        ctx.now,
      );
      return meta === undefined ? { data: task } : { data: task, meta };
    },
  });
}
