/* The reminders module's face: the passes that tell of tasks and transfers falling due, and of stock and media running out of date. */
export { runReminders, type ReminderReport } from './reminders.js';
export { startReminders } from './schedule.js';
export { runExpiry, type ExpiryReport } from './expiry.js';
