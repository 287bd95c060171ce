import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { RateLimitConfig } from '../config.js';
import { errors } from './errors.js';

export interface RateLimitSubject {
  kind: 'key' | 'device' | 'session' | 'sign-in-link';
  credentialId: string;
  workspaceId: string;
}

interface Budget {
  readonly limiter: RateLimiterAbstract;
  readonly points: number;
  /** How a 429 names this budget. */
  readonly name: (subject: RateLimitSubject) => string;
  readonly keyOf: (subject: RateLimitSubject) => string;
}

/** Where a request budget stands after a request: what `X-RateLimit-*` tell a client. */
export interface BudgetState {
  readonly limit: number;
  readonly remaining: number;
  /** Whole seconds until the window ends and the budget is full again (1 to its length). */
  readonly resetSeconds: number;
}

export interface RateLimiter {
  /**
   * Counts one request against the per-credential and per-workspace budgets, and
   * says where the one with fewer requests left stands.
   */
  consumeRequest(subject: RateLimitSubject): Promise<BudgetState>;
  /** Counts `count` sensor readings against the readings budgets. */
  consumeReadings(subject: RateLimitSubject, count: number): Promise<BudgetState>;
  /** Gives back readings counted for a request that then stored nothing (a refused batch). */
  refundReadings(subject: RateLimitSubject, count: number): Promise<void>;
  /**
   * Counts one failed credential (a 401) of a client address; past the budget it
   * throws 429 with Retry-After. Good credentials never reach it.
   */
  consumeFailedCredential(address: string): Promise<void>;
}

export interface RateLimiterOptions {
  limits: RateLimitConfig;
  redis: Redis | null;
  /** Separates the counters of independent deployments sharing one Redis (and of tests). */
  prefix?: string;
  onStoreError?: (error: unknown) => void;
}

const CREDENTIAL_NAMES: Record<RateLimitSubject['kind'], string> = {
  key: 'key',
  device: 'token',
  session: 'session',
  'sign-in-link': 'sign-in link',
};
const credentialName = (subject: RateLimitSubject) => CREDENTIAL_NAMES[subject.kind];

function makeLimiter(
  options: RateLimiterOptions,
  keyPrefix: string,
  points: number,
  duration: number,
): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ keyPrefix, points, duration });
  if (options.redis === null) return memory;
  return new RateLimiterRedis({
    storeClient: options.redis,
    keyPrefix,
    points,
    duration,
    rejectIfRedisNotReady: true,
    // Redis unreachable: count in this process instead, and keep serving.
    insuranceLimiter: memory,
  });
}

function retryAfterSeconds(res: RateLimiterRes): number {
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}

/**
 * Consumes from the first budget, then the second; a refusal by the second gives
 * back what the first took, so a refused request spends nothing of the other budget.
 * With `refundRefused` (readings), a refused batch spends nothing of its own budget
 * either: readings that were not accepted do not count.
 */
async function consumeBoth(
  first: Budget,
  second: Budget,
  subject: RateLimitSubject,
  points: number,
  refundRefused: boolean,
): Promise<BudgetState> {
  const firstKey = first.keyOf(subject);
  const secondKey = second.keyOf(subject);
  let spentFirst: RateLimiterRes;
  try {
    spentFirst = await first.limiter.consume(firstKey, points);
  } catch (refusal) {
    if (refundRefused) await first.limiter.reward(firstKey, points);
    throw asRateLimitError(refusal, first.name(subject));
  }
  let spentSecond: RateLimiterRes;
  try {
    spentSecond = await second.limiter.consume(secondKey, points);
  } catch (refusal) {
    await first.limiter.reward(firstKey, points);
    if (refundRefused) await second.limiter.reward(secondKey, points);
    throw asRateLimitError(refusal, second.name(subject));
  }
  // The budget with the smaller share left is the one a client should watch.
  const firstTighter =
    spentFirst.remainingPoints / first.points <= spentSecond.remainingPoints / second.points;
  const [spent, limit] = firstTighter ? [spentFirst, first.points] : [spentSecond, second.points];
  return { limit, remaining: spent.remainingPoints, resetSeconds: retryAfterSeconds(spent) };
}

function asRateLimitError(refusal: unknown, budget: string): Error {
  if (refusal instanceof RateLimiterRes)
    return errors.rateLimited(budget, retryAfterSeconds(refusal));
  return refusal instanceof Error ? refusal : new Error(String(refusal));
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const prefix = options.prefix ?? 'vitro';
  const { limits } = options;
  const requestsPerCredential: Budget = {
    limiter: makeLimiter(options, `${prefix}:rl:req:cred`, limits.keyPerMinute, 60),
    points: limits.keyPerMinute,
    name: (s) => `per-${credentialName(s)} request budget (${limits.keyPerMinute} per minute)`,
    keyOf: (s) => s.credentialId,
  };
  const requestsPerWorkspace: Budget = {
    limiter: makeLimiter(options, `${prefix}:rl:req:ws`, limits.workspacePerMinute, 60),
    points: limits.workspacePerMinute,
    name: () => `per-workspace request budget (${limits.workspacePerMinute} per minute)`,
    keyOf: (s) => s.workspaceId,
  };
  const readingsPerCredential: Budget = {
    limiter: makeLimiter(options, `${prefix}:rl:rd:cred`, limits.readingsKeyPer5Minutes, 300),
    points: limits.readingsKeyPer5Minutes,
    name: (s) =>
      `per-${credentialName(s)} readings budget (${limits.readingsKeyPer5Minutes} per 5 minutes)`,
    keyOf: (s) => s.credentialId,
  };
  const readingsPerWorkspace: Budget = {
    limiter: makeLimiter(options, `${prefix}:rl:rd:ws`, limits.readingsWorkspacePer5Minutes, 300),
    points: limits.readingsWorkspacePer5Minutes,
    name: () =>
      `per-workspace readings budget (${limits.readingsWorkspacePer5Minutes} per 5 minutes)`,
    keyOf: (s) => s.workspaceId,
  };
  const failuresPerAddress = makeLimiter(
    options,
    `${prefix}:rl:fail:addr`,
    limits.authFailuresPerMinute,
    60,
  );
  return {
    // Every authenticated request counts, refused ones too (DESIGN §4).
    consumeRequest: (subject) =>
      consumeBoth(requestsPerCredential, requestsPerWorkspace, subject, 1, false),
    consumeReadings: (subject, count) =>
      consumeBoth(readingsPerCredential, readingsPerWorkspace, subject, count, true),
    refundReadings: async (subject, count) => {
      await readingsPerCredential.limiter.reward(readingsPerCredential.keyOf(subject), count);
      await readingsPerWorkspace.limiter.reward(readingsPerWorkspace.keyOf(subject), count);
    },
    consumeFailedCredential: async (address) => {
      try {
        await failuresPerAddress.consume(address);
      } catch (refusal) {
        throw asRateLimitError(
          refusal,
          `failed-credential budget of this client address (${limits.authFailuresPerMinute} ` +
            'per minute)',
        );
      }
    },
  };
}
