import { words } from '../../ui/words';

/** The words of the Today screen, in one place for translation. */
export const strings = {
  title: 'Today',
  lead: (name: string, role: string, workspace: string) =>
    `Signed in as ${name}, ${role} of ${workspace}. What needs doing, what is wrong, and what happened.`,
  loading: 'Loading…',
  tasks: 'Tasks due today or tomorrow',
  tasksEmpty: 'No open task is due today or tomorrow.',
  overdue: 'overdue',
  dueToday: 'due today',
  due: 'Due',
  noOne: 'Not assigned',
  contaminations: 'Open contaminations',
  contaminationsEmpty: 'No open contamination. Nothing to watch.',
  vessels: (n: number) => `${n} vessel${n === 1 ? '' : 's'} affected`,
  observed: 'Observed',
  transfers: 'Cultures due for transfer this week',
  transfersEmpty: 'No culture is due for transfer in the next 7 days.',
  transferDue: 'Transfer due',
  vesselsNow: (n: number) => `${n} vessel${n === 1 ? '' : 's'}`,
  activity: 'Latest activity',
  activityEmpty: 'Nothing recorded yet.',
  formerMember: 'a former member',
  recorded: 'Recorded',
  happened: 'happened',
  noStage: 'No stage yet',
  alert: 'Sensor alert',
  stockLot: 'A stock lot',
  rooms: 'Rooms',
  roomsEmpty: 'No rooms yet.',
  counts: (plants: number | null, explants: number | null) =>
    `${count(plants, 'plant')} · ${count(explants, 'explant')}`,
  priority: (priority: string) => `${priority} priority`,
  read: 'Read',
  /** What a change-feed entry says happened, in a technician's words. */
  events: {
    created: 'created',
    updated: 'updated',
    stage_change: 'moved to a new stage',
    transfer: 'transferred',
    contamination: 'contamination reported',
    contamination_resolved: 'contamination resolved',
    archived: 'archived',
    unarchived: 'restored from the archive',
    opened: 'alert opened',
    resolved: 'alert resolved',
    low: 'fell below its reorder level',
    expired: 'passed its expiry date',
  } as Record<string, string>,
} as const;

export const eventWords = (type: string): string => strings.events[type] ?? words(type);

function count(n: number | null, noun: string): string {
  return n === null ? `– ${noun}s` : `${n} ${noun}${n === 1 ? '' : 's'}`;
}
