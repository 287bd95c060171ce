/** Key rules shared by every store: what the local store can map to a path safely. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const MAX_KEY_LENGTH = 512;

/**
 * Throws unless the key is a plain relative path: segments of `[A-Za-z0-9_.-]`
 * joined by `/`, none empty, none starting with a dot (so no `..`, no hidden
 * files that could collide with the local store's own temporary and type files).
 * A bad key is a bug in the caller, never user input, so it is a plain Error.
 */
export function assertBlobKey(key: string): void {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new Error(`Invalid blob key: length must be 1 to ${MAX_KEY_LENGTH}`);
  }
  if (key.includes('..') || !key.split('/').every((segment) => SEGMENT.test(segment))) {
    throw new Error(`Invalid blob key: ${JSON.stringify(key)}`);
  }
}

/** Same rules as a predicate, for code that answers "not found" instead of throwing. */
export function isBlobKey(key: string): boolean {
  try {
    assertBlobKey(key);
    return true;
  } catch {
    return false;
  }
}
