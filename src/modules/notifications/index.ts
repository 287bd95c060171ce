/* The notifications module's face: telling people of what happened, their inbox and settings. */
export { notify, type Addressed, type Audience, type Notice } from './notify.js';
export {
  IMMEDIATE_KINDS,
  NOTIFICATION_KINDS,
  type NotificationKind,
} from './notifications.schemas.js';
export { passMark, setPassMark } from './notifications.repository.js';
export { purgeEmails } from './emails.repository.js';
export { DIGEST_HOUR, EmailWorker, type EmailWorkerOptions } from './email-worker.js';
export { UnsubscribeLinks } from './unsubscribe.js';
export { registerUnsubscribeRoutes } from './unsubscribe.routes.js';
export { settingsByMember, settingsOfMember } from './settings.service.js';
export { followsRoom, type PersonSettings } from './settings.js';
