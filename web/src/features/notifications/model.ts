import type { Schemas } from '../../api/client';
import { recordHref } from '../../ui/links';

export type Notification = Schemas['Notification'];
export type NotificationSettings = Schemas['NotificationSettings'];
export type Kind = Notification['kind'];

/** Where a notification leads: its record's page, or the room of a sensor alert. */
export function hrefOf(notification: Notification): string | null {
  const { type, id } = notification.record;
  switch (type) {
    case 'plant':
    case 'explant':
    case 'task':
    case 'contamination':
      return recordHref[type](id);
    case 'sop':
      return `/sops/${id}`;
    case 'sensor_alert':
      return notification.room_id === null ? null : recordHref.room(notification.room_id);
    default:
      return null;
  }
}

/** How often the bell asks for the unread count while the console is open. */
export const BELL_EVERY_MS = 60_000;

/** Told when notifications were read here, so the bell counts again at once. */
const readListeners = new Set<() => void>();
export function onNotificationsRead(listener: () => void): () => void {
  readListeners.add(listener);
  return () => readListeners.delete(listener);
}
export function notificationsRead(): void {
  for (const listener of readListeners) listener();
}
