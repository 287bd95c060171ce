import type { Database } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import { startOfDay, startOfNextDay } from '../../lib/zoned-time.js';
import { explantsFallingDue } from '../explants/index.js';
import { listWorkspaces } from '../identity/index.js';
import {
  notify,
  passMark,
  settingsByMember,
  setPassMark,
  type Addressed,
} from '../notifications/index.js';
import { assignedTasksDueIn, type DueTaskRow } from '../tasks/index.js';

/**
 * The time-based notifications: a task due today (told when the assignee's day
 * starts, in their time zone), a task overdue (when its due time passes; an all-day
 * task when its day ends), a culture due for transfer (when it falls due, to those
 * who follow its room). Each pass tells of what fell due since the previous pass
 * stopped (the first looks back an hour, none more than a week), so a server that
 * was down catches up once; every notice names its event, so a pass repeated after
 * a crash tells nobody twice.
 */

const PASS = 'reminders';
const FIRST_LOOK_BACK_MS = 3_600_000;
const MAX_LOOK_BACK_MS = 7 * 86_400_000;
/** A local day is at most 25 hours, and starts at most 14 hours from UTC's. */
const DAY_SPAN_MS = 26 * 3_600_000;

export interface ReminderReport {
  readonly from: string;
  readonly until: string;
  /** Notifications made (or found already made). */
  readonly told: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** One pass over every workspace, up to `nowMs`. */
export async function runReminders(database: Database, nowMs: number): Promise<ReminderReport> {
  const { db } = database;
  const mark = await passMark(db, PASS);
  const fromMs = Math.max(
    mark === undefined ? nowMs - FIRST_LOOK_BACK_MS : Date.parse(mark),
    nowMs - MAX_LOOK_BACK_MS,
  );
  const until = iso(nowMs);
  let told = 0;
  if (fromMs < nowMs) {
    for (const workspace of await listWorkspaces(db)) {
      const notices = [
        ...(await taskNotices(database, workspace.id, fromMs, nowMs)),
        ...(await transferNotices(database, workspace.id, fromMs, nowMs)),
      ];
      if (notices.length === 0) continue;
      told += await inTransaction(db, (trx) => notify(trx, workspace.id, notices, until));
    }
  }
  await inTransaction(db, (trx) => setPassMark(trx, PASS, until));
  return { from: iso(fromMs), until, told };
}

async function taskNotices(
  database: Database,
  workspaceId: string,
  fromMs: number,
  nowMs: number,
): Promise<Addressed[]> {
  const tasks = await assignedTasksDueIn(
    database.db,
    workspaceId,
    iso(fromMs - DAY_SPAN_MS),
    iso(nowMs + DAY_SPAN_MS),
  );
  if (tasks.length === 0) return [];
  const settingsOf = await settingsByMember(database.db, workspaceId);
  const within = (ms: number) => ms > fromMs && ms <= nowMs;
  const notices: Addressed[] = [];
  for (const task of tasks) {
    const assignee = task.assigned_to!;
    const zone = settingsOf(assignee).timeZone;
    const due = Date.parse(task.due_date!);
    const notice = (kind: 'task_due_today' | 'task_overdue'): Addressed => ({
      kind,
      eventKey: `${kind}:${task.id}:${task.due_date}`,
      record: { type: 'task', id: task.id, label: task.title },
      actorId: null,
      to: { members: [assignee] },
    });
    const overdueAt = overdueMoment(task, due, zone);
    if (within(startOfDay(due, zone)) && nowMs < overdueAt) notices.push(notice('task_due_today'));
    if (within(overdueAt)) notices.push(notice('task_overdue'));
  }
  return notices;
}

/** A task is overdue once its due time passes; an all-day one once its day is over. */
function overdueMoment(task: DueTaskRow, due: number, zone: string): number {
  return task.is_all_day === 1 ? startOfNextDay(due, zone) : due;
}

async function transferNotices(
  database: Database,
  workspaceId: string,
  fromMs: number,
  nowMs: number,
): Promise<Addressed[]> {
  const due = await explantsFallingDue(database.db, workspaceId, {
    from: iso(fromMs),
    to: iso(nowMs),
  });
  return due.map((explant) => ({
    kind: 'transfer_due',
    eventKey: `transfer_due:${explant.id}:${explant.transfer_due_at}`,
    record: { type: 'explant', id: explant.id, label: explant.label },
    roomId: explant.current_room_id,
    actorId: null,
    to: { room: explant.current_room_id },
  }));
}
