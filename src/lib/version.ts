import { readFileSync } from 'node:fs';

/** The version of this Vitro, from its package.json; null when it cannot be read. */
export function vitroVersion(): string | null {
  try {
    const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    const { version } = JSON.parse(text) as { version?: unknown };
    return typeof version === 'string' ? version : null;
  } catch {
    return null;
  }
}
