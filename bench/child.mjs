// What both bench servers do the same way: report readiness and close cleanly on SIGTERM
// (a clean exit is what lets --cpu-prof write its profile).
import console from 'node:console';
import process from 'node:process';

export function announceReady(name, port) {
  if (process.send) process.send({ type: 'ready', port });
  else console.log(`${name} server listening on http://127.0.0.1:${port}`);
}

export function closeOnSignal(close) {
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    close().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
}
