import type { Schemas } from '../../api/client';

type Kind = Schemas['Notification']['kind'];

/** The words of the bell, the inbox and the notification settings. */
export const strings = {
  bell: {
    label: (unread: number) =>
      unread === 0
        ? 'Notifications: none unread'
        : `Notifications: ${unread >= 1000 ? '999+' : unread} unread`,
  },
  inbox: {
    title: 'Notifications',
    lead: 'What needs you: mentions, your tasks, cultures due for transfer, alerts, contaminations and recalls in the rooms you follow.',
    unreadOnly: 'Only unread',
    all: 'All',
    show: 'Show',
    markAll: 'Mark all as read',
    markedAll: (n: number) => (n === 0 ? 'Nothing was unread.' : `${n} marked as read.`),
    settings: 'Notification settings',
    loading: 'Loading notifications…',
    empty: 'Nothing here. You are told here when something needs you.',
    emptyUnread: 'Nothing unread.',
    more: 'Show older notifications',
    unread: 'Unread',
    by: (name: string) => `by ${name}`,
    formerMember: 'a former member',
    open: 'Open',
    markRead: 'Mark as read',
  },
  kinds: {
    mention: 'Mentioned you',
    reply: 'Replied to your comment',
    task_assigned: 'Task assigned to you',
    task_due_today: 'Task due today',
    task_overdue: 'Task overdue',
    transfer_due: 'Culture due for transfer',
    alert_opened: 'Sensor alert',
    alert_resolved: 'Sensor alert resolved',
    contamination: 'Contamination logged',
    recall: 'Cultures recalled',
  } satisfies Record<Kind, string>,
  settings: {
    title: 'Notification settings',
    lead: 'Choose what you are told of, which rooms you follow and whether it also comes by email. These settings are yours alone.',
    back: 'Back to notifications',
    kinds: 'Tell me when',
    rooms: 'Rooms I follow',
    roomsHint:
      'Transfers due, sensor alerts, contaminations and recalls are told to those who follow the room.',
    everyRoom: 'Every room (and records in no room)',
    someRooms: 'Only these rooms',
    noRooms: 'The lab has no rooms yet.',
    email: 'Also send them by email',
    emailTo: (address: string) =>
      `Emails go to ${address}. Mentions and alerts come at once; the rest in one email a day.`,
    noAddress: 'You have no email address in Vitro: ask an admin to add one.',
    noServer: 'This server does not send email (an admin sets it up).',
    timeZone: 'Your time zone',
    timeZoneHint:
      'When your day starts: for "due today" and the daily email. For example Europe/Paris.',
    save: 'Save settings',
    saved: 'Settings saved.',
    loading: 'Loading your settings…',
  },
} as const;
