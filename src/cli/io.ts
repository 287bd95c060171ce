import { AppError } from '../kernel/errors.js';

/** Where a CLI run reads its environment and writes its output (tests pass their own). */
export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Whether stdout is a terminal (a person reads it) rather than a file, a pipe or
   * a service manager's log: `serve` prints a live sign-in link only to a terminal.
   */
  readonly terminal?: boolean;
  out(text: string): void;
  err(text: string): void;
}

export function processIo(): CliIo {
  return {
    env: process.env,
    terminal: process.stdout.isTTY === true,
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  };
}

/** One JSON object on one line. */
export function jsonLine(value: object): string {
  return `${JSON.stringify(value)}\n`;
}

/** The one-line message of a failure; connection errors of `pg` come as AggregateErrors. */
export function errorMessage(error: unknown): string {
  if (error instanceof AppError) return error.message;
  if (error instanceof AggregateError && error.message === '') {
    const first: unknown = error.errors[0];
    if (first instanceof Error && first.message !== '') return first.message;
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    // fetch() says only "fetch failed"; what failed is in its cause.
    if (error.message === 'fetch failed' && error.cause instanceof Error) {
      return `fetch failed: ${errorMessage(error.cause)}`;
    }
    if (error.message !== '') return error.message;
    return typeof code === 'string' ? code : error.name;
  }
  return String(error);
}
