/** True when a statement failed on a unique index (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
export function isUniqueViolation(error: unknown, index?: string): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, constraint, message } = error as {
    code?: unknown;
    constraint?: unknown;
    message?: unknown;
  };
  if (code === '23505') return index === undefined || constraint === index;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    return index === undefined || (typeof message === 'string' && message.includes(index));
  }
  return false;
}

/**
 * True when SQLite could not get its lock: another process held the database
 * past `busy_timeout` (SQLITE_BUSY and its extended codes, SQLITE_LOCKED).
 */
export function isDatabaseBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code);
}
