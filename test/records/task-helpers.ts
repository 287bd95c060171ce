import type { Database } from '../../src/db/database.js';
import { inTransaction } from '../../src/db/transaction.js';
import { removeMember } from '../../src/modules/identity/index.js';
import { placeTaskByHand } from '../../src/modules/tasks/tasks.service.js';
import { type Client, dataOf, type Json, listAll } from '../support/helpers.js';

/** The keys of a task in a list: the wire fields, category_label and what create/update accept. */
export const TASK_LIST_KEYS = [
  'assigned_to',
  'category',
  'category_label',
  'completed_at',
  'completed_by',
  'created_at',
  'due_date',
  'genus',
  'id',
  'is_all_day',
  'notes',
  'priority',
  'priority_rank',
  'priority_source',
  'status',
  'title',
  'updated_at',
];

/** A single-task response (create, get, update) also carries `entity_link`. */
export const TASK_KEYS = [...TASK_LIST_KEYS, 'entity_link'].sort();

export const DEMAND_KEYS = [
  'created_at',
  'demand_score',
  'genus',
  'id',
  'observed_at',
  'source',
  'source_type',
];

export async function newTask(c: Client, fields: Record<string, unknown> = {}): Promise<Json> {
  return dataOf(await c.post('/api/v1/tasks', { title: 'Prepare MS medium', ...fields }), 201);
}

export async function newDemand(c: Client, fields: Record<string, unknown> = {}): Promise<Json> {
  return dataOf(
    await c.post('/api/v1/tasks/demand', {
      genus: 'Monstera',
      demand_score: 10,
      source: 'webshop',
      ...fields,
    }),
    201,
  );
}

export const tasksOf = (c: Client, query = '') => listAll(c, `/api/v1/tasks${query}`);

/** A task as a list shows it: without `entity_link`. */
export function listed(task: Json): Json {
  const rest = { ...(task as Record<string, unknown>) };
  delete rest.entity_link;
  return rest;
}

/** A placement made by hand, as the lab's app makes one (the API cannot). */
export function placeByHand(
  database: Database,
  workspaceId: string,
  id: string,
  order: { priority: string | null; priority_rank: number | null },
): Promise<Json> {
  return inTransaction(database.db, (trx) =>
    placeTaskByHand(trx, workspaceId, id, order, new Date().toISOString()),
  );
}

export async function removeMemberNow(database: Database, memberId: string): Promise<void> {
  await inTransaction(database.db, (trx) => removeMember(trx, memberId));
}
