// Starts a bench server as a child process (same Node flags for both) and stops it cleanly.
import { fork } from 'node:child_process';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

export async function startServer({ name, script, env, execArgv }) {
  const child = fork(script, [], { env, execArgv, stdio: ['ignore', 'inherit', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    process.stderr.write(`[${name}] ${chunk}`);
  });
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} server did not start in time`));
    }, START_TIMEOUT_MS);
    child.on('message', (message) => {
      if (message?.type !== 'ready') return;
      clearTimeout(timer);
      resolve(message.port);
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${name} server exited (${signal ?? code}) before listening:\n${stderr}`));
    });
  });

  return {
    name,
    pid: child.pid,
    url: `http://127.0.0.1:${port}`,
    /** Sends `message` over IPC and resolves with the server's answer of type `${message.type}-done`. */
    ask(message) {
      return new Promise((resolve, reject) => {
        const onMessage = (answer) => {
          if (answer?.type !== `${message.type}-done`) return;
          child.off('message', onMessage);
          if (answer.error !== undefined) reject(new Error(answer.error));
          else resolve(answer.result);
        };
        child.on('message', onMessage);
        child.send(message);
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
