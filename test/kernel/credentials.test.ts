import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { FastifyBaseLogger } from 'fastify';
import {
  generateCredential,
  hashCredential,
  parseCredential,
} from '../../src/kernel/credentials.js';
import type { Db } from '../../src/db/database.js';
import { createAuthenticator } from '../../src/modules/auth/index.js';

describe('credentials', () => {
  it('have the documented shape, prefix and checksum', () => {
    const key = generateCredential('key', 'production');
    expect(key.secret).toMatch(/^xpk_live_[0-9A-Za-z]{38}$/);
    expect(generateCredential('key', 'development').secret).toMatch(/^xpk_dev_[0-9A-Za-z]{38}$/);
    expect(generateCredential('device', 'production').secret).toMatch(/^xpd_live_/);
    expect(generateCredential('device', 'development').secret).toMatch(/^xpd_dev_/);
    expect(key.hash).toBe(hashCredential(key.secret));
    expect(key.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(key.secret.startsWith(key.displayPrefix)).toBe(true);
    expect(parseCredential(key.secret)).toMatchObject({
      kind: 'key',
      environment: 'production',
      hash: key.hash,
    });
  });

  it('refuses any single-character change (checksum)', () => {
    const { secret } = generateCredential('key', 'production');
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    fc.assert(
      fc.property(
        fc.integer({ min: 9, max: secret.length - 1 }),
        fc.integer({ min: 1, max: 61 }),
        (at, shift) => {
          const replaced = alphabet[(alphabet.indexOf(secret[at]!) + shift) % 62]!;
          const mutated = secret.slice(0, at) + replaced + secret.slice(at + 1);
          return parseCredential(mutated) === null;
        },
      ),
    );
  });

  it('draws at least 190 bits: no collisions in many keys', () => {
    const seen = new Set(
      Array.from({ length: 2000 }, () => generateCredential('key', 'production').secret),
    );
    expect(seen.size).toBe(2000);
  });

  it('refuses a bad checksum without touching the database', async () => {
    const touched: string[] = [];
    const db = new Proxy({} as Db, {
      get(_target, property) {
        touched.push(String(property));
        throw new Error('database read');
      },
    });
    const log = { warn: () => undefined } as unknown as FastifyBaseLogger;
    const authenticate = createAuthenticator({ db, changeGeneration: () => null }, log);
    const { secret } = generateCredential('key', 'production');
    const mistyped = secret.slice(0, -1) + (secret.endsWith('a') ? 'b' : 'a');
    await expect(authenticate(`Bearer ${mistyped}`)).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    await expect(authenticate('Bearer xpk_live_short')).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    expect(touched).toEqual([]);
    await expect(authenticate(`Bearer ${secret}`)).rejects.toThrow('database read');
    expect(touched.length).toBeGreaterThan(0);
  });
});
