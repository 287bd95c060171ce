import type { Tone } from '../../ui/parts';

/** What a device is: reporting, paused (its tokens revoked), or retired for good. */
export type DeviceStatus = 'active' | 'paused' | 'retired';

/** A device's status as a chip: colour, shape and word. */
export const DEVICE_TONE: Record<string, Tone> = { active: 'ok', paused: 'warn', retired: 'off' };
export const deviceTone = (status: string): Tone => DEVICE_TONE[status] ?? 'info';

/**
 * An active device that has sent no heartbeat and no reading for this long has
 * stopped reporting: sensors send every few minutes, so an hour of silence is a
 * dead battery, a lost network or a crashed sensor, not a pause between readings.
 */
export const STALE_AFTER_MS = 60 * 60_000;

/** Whether an active device stopped reporting (never reported counts too). */
export function isStale(
  device: { status: string; last_seen_at: string | null },
  now: number,
): boolean {
  if (device.status !== 'active') return false;
  if (device.last_seen_at === null) return true;
  return now - new Date(device.last_seen_at).getTime() > STALE_AFTER_MS;
}
