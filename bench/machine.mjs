// How much CPU other processes took during a run (Linux /proc): on a shared 2-core machine a
// busy neighbour skews one server's figures, so every run records it.
import process from 'node:process';
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

function machineBusyTicks() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return user + nice + system + irq + softirq + steal;
}

function processTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function ownTicks() {
  const { user, system } = process.cpuUsage();
  return ((user + system) / 1e6) * TICKS_PER_SECOND;
}

/** Starts measuring; `stop()` gives the CPU cores used on average by everything except
 * this process and `serverPid` (`otherCores`), and the CPU seconds the server used
 * (`serverSeconds`); nulls where /proc is not available. */
export function watchOtherLoad(serverPid) {
  let start;
  try {
    start = {
      at: Date.now(),
      machine: machineBusyTicks(),
      server: processTicks(serverPid),
      own: ownTicks(),
    };
  } catch {
    return { stop: () => ({ otherCores: null, serverSeconds: null }) };
  }
  return {
    stop() {
      try {
        const seconds = (Date.now() - start.at) / 1000;
        const machine = machineBusyTicks() - start.machine;
        const server = processTicks(serverPid) - start.server;
        const ours = server + (ownTicks() - start.own);
        return {
          otherCores: Math.max(
            0,
            Math.round(((machine - ours) / TICKS_PER_SECOND / seconds) * 100) / 100,
          ),
          serverSeconds: server / TICKS_PER_SECOND,
        };
      } catch {
        return { otherCores: null, serverSeconds: null };
      }
    },
  };
}
