import type { NotificationRow } from './notifications.repository.js';
import type { NotificationKind } from './notifications.schemas.js';

/** The words of notification emails (plain text; the console says the same in its own words). */

export interface Email {
  readonly subject: string;
  readonly text: string;
}

/** Where the console shows each kind of record; others open the console's start. */
const CONSOLE_PATHS: Readonly<Record<string, string>> = {
  plant: 'plants',
  explant: 'explants',
  task: 'tasks',
  contamination: 'contaminations',
};

export function consoleLink(publicUrl: string, row: NotificationRow): string {
  const base = publicUrl.replace(/\/+$/, '');
  const path = CONSOLE_PATHS[row.record_type];
  if (path !== undefined) return `${base}/${path}/${row.record_id}`;
  if (row.record_type === 'sensor_alert' && row.room_id !== null) {
    return `${base}/rooms/${row.room_id}`;
  }
  return `${base}/`;
}

/** One line saying what happened; `actor` is the name of who did it, if anyone. */
export function sentenceOf(row: NotificationRow, actor: string | null): string {
  const who = actor ?? 'Someone';
  const what = `"${row.record_label}"`;
  const lines: Record<NotificationKind, string> = {
    mention: `${who} mentioned you on ${what}`,
    reply: `${who} replied to your comment on ${what}`,
    task_assigned: `${who} assigned you the task ${what}`,
    task_due_today: `Your task ${what} is due today`,
    task_overdue: `Your task ${what} is overdue`,
    transfer_due: `${what} is due for transfer`,
    alert_opened: `Sensor alert: ${what} opened`,
    alert_resolved: `Sensor alert: ${what} resolved`,
    contamination: `${who} logged a contamination: ${what}`,
    recall: `Recall: ${what}`,
  };
  return lines[row.kind as NotificationKind] ?? `${row.kind}: ${what}`;
}

const footer = (unsubscribe: string) =>
  `\n\n--\nYou get these emails from Vitro because of your notification settings.\n` +
  `To stop them: ${unsubscribe}\n`;

export function immediateEmail(
  row: NotificationRow,
  actor: string | null,
  links: { readonly publicUrl: string; readonly unsubscribe: string },
): Email {
  const line = sentenceOf(row, actor);
  return {
    subject: line,
    text: `${line}.\n\n${consoleLink(links.publicUrl, row)}${footer(links.unsubscribe)}`,
  };
}

export function digestEmail(
  rows: readonly { readonly row: NotificationRow; readonly actor: string | null }[],
  links: { readonly publicUrl: string; readonly unsubscribe: string },
): Email {
  const n = rows.length;
  const items = rows.map(
    ({ row, actor }) => `- ${sentenceOf(row, actor)}\n  ${consoleLink(links.publicUrl, row)}`,
  );
  return {
    subject: `Vitro: ${n} ${n === 1 ? 'thing' : 'things'} for you today`,
    text: `Since your last summary:\n\n${items.join('\n')}${footer(links.unsubscribe)}`,
  };
}
