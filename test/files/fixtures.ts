import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FIXTURES = join(import.meta.dirname, 'fixtures');

/** The bytes of a committed fixture file (see fixtures/README.md for how each was made). */
export const fixture = (name: string): Buffer => readFileSync(join(FIXTURES, name));
