/* The events module's face: the change history other modules append to. */
export {
  recordChangeEvent,
  recordChangeEvents,
  type ChangeEventType,
  type EntityType,
  type NewChangeEvent,
} from './events.service.js';
