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
