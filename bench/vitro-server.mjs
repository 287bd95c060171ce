// The real Vitro server from the built code (dist/), listening on PORT (0 = any free port).
// Started by bench/run.mjs as a child process; it reports its port over IPC when it has one.
import process from 'node:process';
import { buildApp } from '../dist/app.js';
import { loadConfig } from '../dist/config.js';
import { announceReady, closeOnSignal } from './child.mjs';

const config = loadConfig({ LOG_LEVEL: 'silent', ...process.env });
const app = await buildApp(config);
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });

closeOnSignal(() => app.close());
announceReady('vitro', app.server.address().port);
