import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readingIdOf } from './readings.service.js';

/** The id as it was first defined: SHA-256 bytes 0–15, version 8, variant 10. */
function reference(deviceId: string, externalId: string, recordedAt: string): string {
  const bytes = createHash('sha256')
    .update(`${deviceId}\n${recordedAt}\n${externalId}`)
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

describe('readingIdOf', () => {
  // Stored readings carry these ids: a repeat is skipped only if it gets the same one.
  it('gives the ids readings stored by earlier versions carry', () => {
    const device = '0192f3a4-5b6c-7d8e-9f01-23456789abcd';
    expect(readingIdOf(device, 'ext-1', '2026-11-20T08:00:00.000Z')).toBe(
      '12205460-174b-8fd3-8f63-c37858a82b88',
    );
    expect(readingIdOf(device, 'température 🌡', '0001-01-01T00:00:00.000Z')).toBe(
      '2ff37742-90a3-83b0-9b1a-8e26020a2c66',
    );
    expect(
      readingIdOf('11111111-2222-4333-8444-555555555555', 'a\nb', '9999-12-31T23:59:59.999Z'),
    ).toBe('62fbfc7d-4a67-8f71-bac6-8538da8053ed');
  });

  it('agrees with the first definition on every variant digit and many inputs', () => {
    const variants = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const args = [
        `0192f3a4-5b6c-7d8e-9f01-${String(i).padStart(12, '0')}`,
        `reading-${i}-${'x'.repeat(i % 7)}`,
        new Date(Date.UTC(2026, 0, 1) + i * 997).toISOString(),
      ] as const;
      const id = readingIdOf(...args);
      expect(id).toBe(reference(...args));
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      variants.add(id[19]!);
    }
    expect([...variants].sort()).toEqual(['8', '9', 'a', 'b']);
  });
});
