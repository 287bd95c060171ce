import type { Schemas } from '../../api/client';
import type { operations } from '../../api/schema';
import type { Tone } from '../../ui/parts';
import { strings } from './strings';

export type Task = Schemas['Task'];
type Query = NonNullable<operations['listTasks']['parameters']['query']>;
export type TaskStatus = NonNullable<Query['status']>;
type NewTask = NonNullable<operations['createTask']['requestBody']>['content']['application/json'];
export type Category = NonNullable<NewTask['category']>;
export type Priority = NonNullable<NewTask['priority']>;

/** The board's columns, in the order work flows through them. */
export const TASK_STATUSES: readonly TaskStatus[] = [
  'backlog',
  'todo',
  'in_progress',
  'waiting_blocked',
  'review',
  'done',
];

/** Each column's name. */
export const STATUS_WORDS: Record<TaskStatus, string> = strings.statuses;

export const statusWords = (status: string): string =>
  STATUS_WORDS[status as TaskStatus] ?? status.replace(/_/g, ' ');

export const CATEGORIES: readonly Category[] = [
  'media_prep',
  'transfer',
  'contamination',
  'subculture',
  'sop_review',
  'acclimation',
  'cleaning',
  'monitoring',
  'other',
];

export const PRIORITIES: readonly Priority[] = ['low', 'medium', 'high', 'urgent'];

const DAY = 86_400_000;

/** A task's due date as a tone: overdue and due within a day amber, done green. */
export function dueTone(task: Task, now: number): Tone {
  if (task.status === 'done') return 'ok';
  if (task.due_date === null) return 'info';
  return new Date(task.due_date).getTime() < now + DAY ? 'warn' : 'info';
}

/** A date input's `YYYY-MM-DD` as the end of that day in the lab's (the browser's) time. */
export function endOfDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(y!, m! - 1, d, 23, 59, 0).toISOString();
}
