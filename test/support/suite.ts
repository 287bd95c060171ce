import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import type { Plan } from '../../src/kernel/access.js';
import {
  createLab,
  databaseTargets,
  isolatedTargets,
  startTestApp,
  type DatabaseTarget,
  type Lab,
  type TestApp,
} from './harness.js';
import { client, type Client } from './helpers.js';

/** The suite once per database: `<name> on sqlite`, then on PostgreSQL when there is one. */
export function describeOnDatabases(name: string, body: (target: DatabaseTarget) => void): void {
  describe.each(databaseTargets())(`${name} on $name`, body);
}

/**
 * The same on databases of the suite's own (`isolatedTargets`): for suites that run a
 * webhook delivery worker, which serves every workspace of its database.
 */
export function describeOnOwnDatabases(name: string, body: (target: DatabaseTarget) => void): void {
  describe.each(isolatedTargets())(`${name} on $name`, body);
}

/**
 * A view of whatever `current()` holds when it is used; set by the suite's hooks.
 * Its methods run on the object itself (a browser's keep their `this`).
 */
export function live<T extends object>(what: string, current: () => T | undefined): T {
  const value = () => {
    const held = current();
    if (held === undefined)
      throw new Error(`${what} exists inside a test (the suite's hooks set it)`);
    return held;
  };
  return new Proxy({} as T, {
    get: (_, key) => {
      const held = value();
      const member = Reflect.get(held, key) as unknown;
      return typeof member === 'function' ? (member as () => unknown).bind(held) : member;
    },
    has: (_, key) => Reflect.has(value(), key),
    ownKeys: () => Reflect.ownKeys(value()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(value(), key),
  });
}

type AppOptions = Parameters<typeof startTestApp>[1];

/**
 * The app started once on `target` for the suite's `describe` (`t`), for suites whose
 * tests make their own labs, or none: authentication, idempotency, the documents.
 * Options that depend on what an earlier `beforeAll` started (a storage server's
 * address) are given as a function, called when the app starts.
 */
export function appSuite(
  target: DatabaseTarget,
  app: AppOptions | (() => AppOptions) = {},
): { t: TestApp } {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await startTestApp(target, typeof app === 'function' ? app() : app);
  });
  afterAll(() => t?.close());
  return { t: live('t', () => t) };
}

export interface LabOptions {
  plan?: Plan;
  name?: string;
  /** One lab for the whole suite, made once after the app starts, instead of one a test. */
  shared?: boolean;
}

/**
 * What most suites set up, in their `describe`: the app started once on `target`
 * (`t`), and for each test a fresh workspace (`lab`) and a client of its owner
 * (`owner`); with `shared`, one lab for all the suite's tests (a suite that builds
 * much data once and only reads it). The three are live views, so each test sees its
 * own lab; hooks the suite adds after this call run after the lab exists.
 */
export function labSuite(
  target: DatabaseTarget,
  app: AppOptions | (() => AppOptions) = {},
  labOptions: LabOptions = {},
): { t: TestApp; lab: Lab; owner: Client } {
  const { shared = false, ...workspace } = labOptions;
  const { t } = appSuite(target, app);
  let lab: Lab | undefined;
  let owner: Client | undefined;
  (shared ? beforeAll : beforeEach)(async () => {
    lab = await createLab(t.database, workspace);
    owner = client(t, lab.owner);
  });
  return {
    t,
    lab: live('lab', () => lab),
    owner: live('owner', () => owner),
  };
}

/**
 * A second workspace for each test (`lab`, named "Theirs") and its owner's client
 * (`owner`), made after the suite's own: for tests of what one workspace may not see or
 * change of another's. Called after `labSuite`, with its `t`.
 */
export function otherLab(t: TestApp): { lab: Lab; owner: Client } {
  let lab: Lab | undefined;
  let owner: Client | undefined;
  beforeEach(async () => {
    lab = await createLab(t.database, { name: 'Theirs' });
    owner = client(t, lab.owner);
  });
  return { lab: live('their lab', () => lab), owner: live('their owner', () => owner) };
}
