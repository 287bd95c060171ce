import type { Tone } from '../../ui/parts';

/** A batch's status chip: ready green, expired red, used up or discarded grey. */
export const BATCH_TONES: Readonly<Record<string, Tone>> = {
  ready: 'ok',
  used_up: 'off',
  expired: 'bad',
  discarded: 'off',
};
