// The real Vitro server from the built code (dist/), listening on PORT (0 = any free port).
// Started by bench/run.mjs as a child process; it reports its port over IPC when it has one,
// and runs the readings upkeep (retention) when sent {type: 'retention'}.
import process from 'node:process';
import { buildApp } from '../dist/app.js';
import { loadConfig } from '../dist/config.js';
import { announceReady, closeOnSignal } from './child.mjs';

const config = loadConfig({ LOG_LEVEL: 'silent', ...process.env });
// The readings upkeep runs only when the bench asks (its retention step), never on its own.
const app = await buildApp(config, { readingsMaintenance: false });
process.on('message', (message) => {
  if (message?.type !== 'retention') return;
  app.readingsMaintenance.runNow().then(
    (result) => process.send({ type: 'retention-done', result }),
    (error) => process.send({ type: 'retention-done', error: String(error?.stack ?? error) }),
  );
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });

closeOnSignal(() => app.close());
announceReady('vitro', app.server.address().port);
