import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import type { Plan } from '../../src/kernel/access.js';
import {
  createLab,
  databaseTargets,
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

/**
 * What most suites set up, in their `describe`: the app started once on `target`
 * (`t`), and for each test a fresh workspace (`lab`) and a client of its owner
 * (`owner`). The three are live views, so each test sees its own lab; hooks the
 * suite adds after this call run after the lab exists.
 */
export function labSuite(
  target: DatabaseTarget,
  app: Parameters<typeof startTestApp>[1] = {},
  labOptions: { plan?: Plan; name?: string } = {},
): { t: TestApp; lab: Lab; owner: Client } {
  let t: TestApp | undefined;
  let lab: Lab | undefined;
  let owner: Client | undefined;
  beforeAll(async () => {
    t = await startTestApp(target, app);
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    lab = await createLab(t!.database, labOptions);
    owner = client(t!, lab.owner);
  });
  return {
    t: live('t', () => t),
    lab: live('lab', () => lab),
    owner: live('owner', () => owner),
  };
}
