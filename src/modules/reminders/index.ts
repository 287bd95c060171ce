/* The reminders module's face: the pass that tells of tasks and transfers falling due. */
export { runReminders, type ReminderReport } from './reminders.js';
export { startReminders } from './schedule.js';
