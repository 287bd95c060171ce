import { jsonLine, type CliIo } from './io.js';

/** How often a long run reports on stderr; a run shorter than this prints nothing. */
const PROGRESS_EVERY_MS = 1000;

/**
 * Progress of a long command as JSON lines on stderr
 * (`{"progress":"database","percent":42}`), at most one a second, and a line at
 * each new phase once the run has gone on that long. stdout keeps its one
 * result line.
 */
export function progressReporter(
  io: CliIo,
): (progress: { phase: string; percent: number }) => void {
  const started = Date.now();
  let last = started;
  let lastPhase = '';
  return ({ phase, percent }) => {
    const now = Date.now();
    if (now - started < PROGRESS_EVERY_MS) return;
    if (phase === lastPhase && now - last < PROGRESS_EVERY_MS) return;
    last = now;
    lastPhase = phase;
    io.err(jsonLine({ progress: phase, percent }));
  };
}
