// The baseline: bare Fastify doing each bench route's own work (key lookup, the route's SQL,
// the same JSON envelope) and nothing else: no request ids, rate limits, metrics, schemas.
// DATABASE_URL (sqlite:<path> or postgres://…), VITRO_SECRET (for list cursors), PORT.
import process from 'node:process';
import Fastify from 'fastify';
import {
  checkKeyRow,
  createCursorSigner,
  filterHash,
  hashKey,
  needsTouch,
  presentMe,
  presentPlant,
} from './baseline-records.mjs';
import { openPgStore } from './baseline-pg.mjs';
import { openSqliteStore } from './baseline-sqlite.mjs';
import { presentTransfer } from './baseline-transfers.mjs';
import { announceReady, closeOnSignal } from './child.mjs';
import { LIST_LIMIT, presentReading } from './readings.mjs';
import { summarize } from './baseline-summary.mjs';

const PAGE_LIMIT = 50;
const url = process.env.DATABASE_URL ?? '';
const store = url.startsWith('sqlite:')
  ? openSqliteStore(url.slice('sqlite:'.length))
  : openPgStore(url);
const signCursor = createCursorSigner(process.env.VITRO_SECRET ?? '');
const NO_FILTERS = filterHash({});

const failure = (reply, status, code, error) =>
  reply.code(status).send({ ok: false, data: null, error, code });

/** The key row with its scopes, or null after answering 401/403. */
async function authenticate(req, reply, scope) {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  const key = match ? checkKeyRow(await store.findKeyForAuth(hashKey(match[1]))) : null;
  if (key === null) {
    failure(reply, 401, 'UNAUTHORIZED', 'Unknown or revoked API key');
    return null;
  }
  const nowMs = Date.now();
  if (needsTouch(key, nowMs)) {
    store.touchKey(key.id, new Date(nowMs).toISOString()).catch(() => undefined);
  }
  if (scope !== null && !key.scopes.includes(scope)) {
    failure(reply, 403, 'FORBIDDEN', `This key lacks the scope ${scope}`);
    return null;
  }
  return key;
}

const app = Fastify({ logger: false });

app.get('/api/v1/me', async (req, reply) => {
  const key = await authenticate(req, reply, null);
  if (key === null) return reply;
  return { ok: true, data: presentMe(key) };
});

app.get('/api/v1/plants/:id', async (req, reply) => {
  const key = await authenticate(req, reply, 'read:plants');
  if (key === null) return reply;
  const row = await store.findPlant(key.workspace_id, req.params.id);
  if (row === undefined) return failure(reply, 404, 'NOT_FOUND', 'Plant not found');
  return { ok: true, data: presentPlant(row) };
});

app.get('/api/v1/plants', async (req, reply) => {
  const key = await authenticate(req, reply, 'read:plants');
  if (key === null) return reply;
  const rows = await store.listPlants(key.workspace_id, PAGE_LIMIT + 1, 0);
  const page = rows.slice(0, PAGE_LIMIT);
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > PAGE_LIMIT
      ? signCursor('plants', NO_FILTERS, key.workspace_id, [last.created_at, last.id])
      : null;
  return { ok: true, data: page.map(presentPlant), meta: { next_cursor: nextCursor } };
});

app.post('/api/v1/plants', async (req, reply) => {
  const key = await authenticate(req, reply, 'write:plants');
  if (key === null) return reply;
  const plant = await store.createPlant(key, req.body.species, new Date().toISOString());
  return reply.code(201).send({ ok: true, data: presentPlant(plant) });
});

app.post('/api/v1/sensor-readings', async (req, reply) => {
  const key = await authenticate(req, reply, 'write:sensor_readings');
  if (key === null) return reply;
  const single = !Array.isArray(req.body.readings);
  const inputs = single ? [req.body] : req.body.readings;
  const deviceIds = [...new Set(inputs.map((r) => r.device_id))];
  const now = new Date().toISOString();
  const result = await store.ingestReadings(key.workspace_id, inputs, deviceIds, now);
  if (result.error !== undefined) {
    return failure(reply, result.error === 'NOT_FOUND' ? 404 : 409, result.error, result.error);
  }
  const data = result.rows.map(presentReading);
  return reply.code(201).send({ ok: true, data: single ? data[0] : data });
});

app.get('/api/v1/sensor-readings', async (req, reply) => {
  const key = await authenticate(req, reply, 'read:sensor_readings');
  if (key === null) return reply;
  const { device_id: deviceId, since } = req.query;
  const limit = Math.min(Number(req.query.limit ?? 100), LIST_LIMIT);
  const rows = await store.listReadings(
    key.workspace_id,
    deviceId,
    new Date(since).toISOString(),
    limit + 1,
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > limit
      ? signCursor(
          'sensor-readings',
          filterHash({ device_id: deviceId, since }),
          key.workspace_id,
          [last.recorded_at, last.id],
        )
      : null;
  // As Vitro: where raw readings start, once retention removed some.
  const rawSince = await store.rawSince(key.workspace_id);
  const meta =
    rawSince === null
      ? { next_cursor: nextCursor }
      : { next_cursor: nextCursor, raw_since: rawSince };
  return { ok: true, data: page.map(presentReading), meta };
});

// One device's summary (the bench's charts).
app.get('/api/v1/sensor-readings/summary', async (req, reply) => {
  const key = await authenticate(req, reply, 'read:sensor_readings');
  if (key === null) return reply;
  return { ok: true, ...(await summarize(store, key.workspace_id, req.query)) };
});

// Transfers of one explant (the bench's case; plant_id is not served here).
app.get('/api/v1/transfers', async (req, reply) => {
  const key = await authenticate(req, reply, 'read:transfers');
  if (key === null) return reply;
  const explantId = req.query.explant_id;
  if ((await store.findExplant(key.workspace_id, explantId)) === undefined) {
    return failure(reply, 404, 'NOT_FOUND', 'Explant not found');
  }
  const rows = await store.listTransfers(key.workspace_id, 'explant', explantId, PAGE_LIMIT + 1, 0);
  const page = rows.slice(0, PAGE_LIMIT);
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > PAGE_LIMIT
      ? signCursor('transfers', filterHash(req.query), key.workspace_id, [
          last.transfer_date,
          last.id,
        ])
      : null;
  return { ok: true, data: page.map(presentTransfer), meta: { next_cursor: nextCursor } };
});

app.post('/api/v1/transfers', async (req, reply) => {
  const key = await authenticate(req, reply, 'write:transfers');
  if (key === null) return reply;
  const row = await store.createExplantTransfer(key, req.body, new Date().toISOString());
  if (row === undefined) return failure(reply, 404, 'NOT_FOUND', 'Explant not found');
  return reply.code(201).send({ ok: true, data: presentTransfer(row) });
});

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
closeOnSignal(async () => {
  await app.close();
  await store.close();
});
announceReady('baseline', app.server.address().port);
