import { v7 as uuidv7, validate, version } from 'uuid';

/** A new time-ordered id (UUIDv7): good index locality and a stable tiebreak. */
export function newId(): string {
  return uuidv7();
}

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_SHAPE.test(value) && validate(value) && version(value) >= 1;
}
