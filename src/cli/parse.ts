import { readFile } from 'node:fs/promises';
import { SCOPES, isScope, type Scope } from '../kernel/access.js';
import { errors } from '../kernel/errors.js';
import { withSuggestion } from '../kernel/scope-suggest.js';

/*
 * What the admin commands read from their options and files, checked here so that
 * the services receive typed values.
 */

/** Comma-separated values; '' (or only commas) is the empty list. */
export function commaList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** `all`, `none`, `''` (none) or a comma-separated list of scopes. */
export function parseScopes(text: string): Scope[] {
  const trimmed = text.trim();
  if (trimmed === 'all') return [...SCOPES];
  if (trimmed === 'none' || trimmed === '') return [];
  const scopes = trimmed
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    throw errors.validation(`scopes: unknown scope ${unknown.map(withSuggestion).join(', ')}`);
  }
  return SCOPES.filter((s) => scopes.includes(s));
}

/** The JSON of `--file`; a file that cannot be read or parsed is a validation error naming it. */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw errors.validation(`--file: cannot read ${path} (${String(code ?? error)})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw errors.validation(`--file: ${path} is not valid JSON (${(error as Error).message})`);
  }
}
