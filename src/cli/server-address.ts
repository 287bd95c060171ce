import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The address a running server's console is opened at, recorded in its data
 * directory at every start, so that a command run beside it (`vitro member link`
 * without PUBLIC_URL) hands out links that open, not a guess at :3000.
 */
const FILE = 'server-address.json';

export interface RecordedAddress {
  readonly console_url: string;
  readonly pid: number;
  readonly recorded_at: string;
}

/** Records where this process's console is; a later start replaces it. */
export function recordServerAddress(dataDir: string, consoleUrl: string): void {
  const record: RecordedAddress = {
    console_url: consoleUrl,
    pid: process.pid,
    recorded_at: new Date().toISOString(),
  };
  const path = join(dataDir, FILE);
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  renameSync(partial, path);
}

/** What the last server started on this data directory recorded, if any. */
export function recordedServerAddress(dataDir: string): RecordedAddress | null {
  try {
    const parsed = JSON.parse(
      readFileSync(join(dataDir, FILE), 'utf8'),
    ) as Partial<RecordedAddress>;
    return typeof parsed.console_url === 'string' && typeof parsed.pid === 'number'
      ? (parsed as RecordedAddress)
      : null;
  } catch {
    return null;
  }
}

/** Whether the process that recorded the address still runs (on this machine). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
