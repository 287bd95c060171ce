import type { Tone } from '../../ui/parts';

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
