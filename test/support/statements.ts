import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { expect, vi } from 'vitest';

/**
 * Every SQL statement the process sends to a database while `work` runs, in order,
 * transaction control (`begin`, `commit`) included. PostgreSQL: every query of a
 * pg client (the pool's clients share pg's prototype). SQLite: every run of a
 * better-sqlite3 statement, which covers Kysely's dialect and the prepared-query
 * fast path alike (both run statements the connection handle prepared).
 */
export async function statementsOf(
  dialect: 'sqlite' | 'postgres',
  work: () => Promise<unknown>,
): Promise<string[]> {
  const seen: string[] = [];
  const spies = dialect === 'postgres' ? [postgresQuerySpy(seen)] : sqliteStatementSpies(seen);
  try {
    await work();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return seen;
}

/** Spies on pg's client query method (database.ts looks it up on every call). */
function postgresQuerySpy(seen: string[]) {
  const original = Reflect.get(pg.Client.prototype, 'query') as (...args: unknown[]) => unknown;
  return vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    const text = args[0];
    seen.push(typeof text === 'string' ? text : String((text as { text?: unknown }).text));
    return original.apply(this, args);
  });
}

/** Spies on the methods of better-sqlite3's statement class that run a statement. */
function sqliteStatementSpies(seen: string[]) {
  const probe = new SqliteDatabase(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<
    'all' | 'get' | 'run' | 'iterate',
    (...args: unknown[]) => unknown
  >;
  probe.close();
  return (['all', 'get', 'run', 'iterate'] as const).map((method) => {
    const original = prototype[method];
    return vi.spyOn(prototype, method).mockImplementation(function (
      this: { source: string },
      ...args: unknown[]
    ) {
      seen.push(this.source);
      return original.apply(this, args);
    });
  });
}

/** The statements from `begin` to `commit`: a request's write transaction. */
export function transactionOf(statements: readonly string[]): string[] {
  const begin = statements.findIndex((text) => /^begin/i.test(text));
  const commit = statements.findIndex((text) => /^commit/i.test(text));
  expect(begin).toBeGreaterThanOrEqual(0);
  expect(commit).toBeGreaterThan(begin);
  return statements.slice(begin, commit + 1);
}

/** How many of `statements` match `pattern`. */
export const countMatching = (statements: readonly string[], pattern: RegExp): number =>
  statements.filter((text) => pattern.test(text)).length;
