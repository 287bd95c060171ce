import type { Tone } from '../../ui/parts';

/** Where each kind of record lives in the console. */
export const recordHref = {
  plant: (id: string) => `/plants/${id}`,
  explant: (id: string) => `/explants/${id}`,
  task: (id: string) => `/tasks/${id}`,
  contamination: (id: string) => `/contaminations/${id}`,
  room: (id: string) => `/rooms/${id}`,
} as const;

/** `in_culture` -> `in culture`: the API's words, readable. */
export const words = (value: string): string => value.replace(/_/g, ' ');

/** A plant's or explant's status as a chip tone: trouble red, waiting amber, done grey. */
const STATUS_TONE: Record<string, Tone> = {
  active: 'ok',
  growing: 'ok',
  establishing: 'ok',
  in_culture: 'ok',
  dormant: 'off',
  harvested: 'off',
  archived: 'off',
  retired: 'off',
  discarded: 'off',
  senescing: 'warn',
  needs_subculture: 'warn',
  ready_for_transfer: 'warn',
  quarantined: 'warn',
  contaminated: 'bad',
  failed: 'bad',
  lost: 'bad',
};
export const statusTone = (status: string): Tone => STATUS_TONE[status] ?? 'info';

/** What a change-feed entry says happened, in a technician's words. */
const EVENT_WORDS: Record<string, string> = {
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
};
export const eventWords = (type: string): string => EVENT_WORDS[type] ?? words(type);

/** A sensor value with its unit: `24.5 °C`, `69 %`. */
const SENSOR_WORDS: Record<string, string> = {
  temperature: 'Temperature',
  humidity: 'Humidity',
  ph: 'pH',
  co2: 'CO₂',
  light: 'Light',
  other: 'Other',
};
export const sensorWords = (type: string): string => SENSOR_WORDS[type] ?? words(type);
