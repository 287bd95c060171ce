/* The events module's face: the change history other modules append to. */
export {
  currentEventSequence,
  EVENT_TYPES,
  eventTypeOf,
  findEvents,
  listEventsAfter,
  presentEvent,
  recordChangeEvent,
  recordChangeEvents,
  recordOrGather,
  type ChangeEventType,
  type EntityType,
  type EventRow,
  type FeedEntityType,
  type NewChangeEvent,
} from './events.service.js';
