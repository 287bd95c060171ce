import type { Tone } from '../ui/parts';

/** A device's status as a chip: colour, shape and word. */
export const DEVICE_TONE: Record<string, Tone> = { active: 'ok', paused: 'warn', retired: 'off' };
export const deviceTone = (status: string): Tone => DEVICE_TONE[status] ?? 'info';
