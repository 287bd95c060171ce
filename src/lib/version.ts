import { readFileSync } from 'node:fs';

/** The version of this Vitro, from its package.json (0.0.0 when it cannot be read). */
export function vitroVersion(): string {
  try {
    const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    const { version } = JSON.parse(text) as { version?: unknown };
    return typeof version === 'string' ? version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
