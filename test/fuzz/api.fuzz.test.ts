import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from '../../src/kernel/errors.js';
import { mintDeviceToken } from '../../src/modules/devices/devices.service.js';
import { DEFAULT_STAGE_LISTS } from '../../src/modules/lab/stage-lists.js';
import {
  addRoom,
  client,
  dataOf,
  defineCustomFields,
  GENEROUS_LIMITS,
  newExplant,
  newPlant,
} from '../records/helpers.js';
import { createLab, databaseTargets, startTestApp, type TestApp } from '../support/harness.js';
import { rawExchange } from '../support/raw-http.js';
import { operationsOf, type OpenApiDocument, type OperationSpec } from './operations.js';
import { expand, requestFor, type Fixtures, type FuzzRequest } from './requests.js';

/**
 * Property-based fuzzing of every operation in the served OpenAPI document, on
 * every database: valid requests generated from the operation's schemas (with ids
 * of a seeded workspace) and mutated ones (wrong types, extreme numbers, NUL bytes,
 * huge strings, unknown and missing fields, malformed ids and dates, bad
 * percent-encoding, odd headers and request lines over a real socket, bodies that
 * are not objects). Every answer must be the envelope with a catalogue code and an
 * X-Request-Id, never a 5xx; afterwards every record must still read back.
 *
 * VITRO_FUZZ_RUNS (requests per database, default 6000) sets the budget; VITRO_FUZZ_SEED
 * (default fixed) replays a run, with VITRO_FUZZ_PATH to replay fast-check's
 * reported counterexample directly.
 */
const RUNS = Number(process.env.VITRO_FUZZ_RUNS ?? 6000);
const SEED = Number(process.env.VITRO_FUZZ_SEED ?? 20261121);
const PATH = process.env.VITRO_FUZZ_PATH;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Statuses a code may have besides its catalogue status (protocol-level answers). */
const OTHER_STATUSES: Partial<Record<ErrorCode, number[]>> = {
  VALIDATION_ERROR: [400, 408, 417],
  PAYLOAD_TOO_LARGE: [431],
};

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

function problemsOf(answer: Answer | null): string[] {
  if (answer === null) return ['no response'];
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`status ${answer.status}`);
  if (!UUID.test(String(answer.headers['x-request-id']))) problems.push('no X-Request-Id');
  let envelope: Record<string, unknown>;
  try {
    envelope = JSON.parse(answer.body) as Record<string, unknown>;
  } catch {
    return [...problems, 'body is not JSON'];
  }
  if (answer.status >= 400) {
    const code = envelope.code as ErrorCode;
    if (envelope.ok !== false || envelope.data !== null || typeof envelope.error !== 'string') {
      problems.push('not the failure envelope');
    }
    if (!ERROR_CODES.includes(code)) {
      problems.push(`code ${String(code)} is not in the catalogue`);
    } else if (
      ERROR_STATUS[code] !== answer.status &&
      !(OTHER_STATUSES[code] ?? []).includes(answer.status)
    ) {
      problems.push(`code ${code} with status ${answer.status}`);
    }
  } else if (envelope.ok !== true || !('data' in envelope)) {
    problems.push('not the success envelope');
  }
  return problems;
}

describe.each(databaseTargets())('OpenAPI-driven fuzz on $name', (target) => {
  let t: TestApp;
  let port: number;
  let operations: OperationSpec[];
  let fixtures: Fixtures;
  let owner: ReturnType<typeof client>;

  beforeAll(async () => {
    t = await startTestApp(target, { env: GENEROUS_LIMITS });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    operations = operationsOf(doc as OpenApiDocument);

    const lab = await createLab(t.database);
    owner = client(t, lab.owner);
    await defineCustomFields(t.database, lab.workspaceId, [
      ...(['plant', 'explant'] as const).flatMap((entity) => [
        { entity, key: 'clone', type: 'text' as const },
        { entity, key: 'height_cm', type: 'number' as const },
        { entity, key: 'sterile', type: 'boolean' as const },
        { entity, key: 'sown_on', type: 'date' as const },
        { entity, key: 'grade', type: 'select' as const, options: ['A', 'B'] },
      ]),
    ]);
    const rooms = [
      await addRoom(t.database, lab.workspaceId),
      await addRoom(t.database, lab.workspaceId, 'B'),
    ];
    const plants = [];
    for (const species of ['Ficus lyrata', 'Alocasia', 'Monstera']) {
      plants.push(
        await newPlant(owner, { species, custom_fields: { clone: 'c1', height_cm: 12.5 } }),
      );
    }
    const explants = [
      await newExplant(owner, { plant_id: plants[0].id, initial_count: 4 }),
      await newExplant(owner, { label: 'E-2', batch_number: 'B-2' }),
    ];
    const device = await lab.deviceToken();
    // A second token of the device, so that token paths name a real one.
    const spareToken = await inTransaction(t.database.db, (trx) =>
      mintDeviceToken(trx, { workspaceId: lab.workspaceId, deviceId: device.deviceId }),
    );
    const viewer = await lab.actor('viewer');
    const freeLab = await createLab(t.database, { plan: 'free', name: 'Free lab' });
    const ownerKey = lab.owner.headers.authorization;
    fixtures = {
      ids: new Map([
        ['plant', plants.map((p) => p.id as string)],
        ['explant', explants.map((e) => e.id as string)],
        ['room', rooms],
        ['device', [device.deviceId]],
        ['token', [spareToken.id]],
        ['workspace', [lab.workspaceId]],
        ['member', [lab.owner.memberId]],
      ]),
      hints: {
        stage: Object.values(DEFAULT_STAGE_LISTS).flatMap((list) =>
          list.flatMap((s) => [s.key, s.name]),
        ),
        initial_stage: DEFAULT_STAGE_LISTS.plant.map((s) => s.name),
        entered_on: ['2026-01-01', '2026-03-01T10:00:00Z', '2026-03-01T10:00:00+02:00'],
        since: ['2026-01-01T00:00:00Z', '2026-01-01'],
        clone: ['c1', 'FL-A'],
        height_cm: [0, 12.5, -3, 1e300],
        sterile: [true, false],
        sown_on: ['2026-02-28', '2024-02-29'],
        grade: ['A', 'B'],
      },
      mapKeys: ['clone', 'height_cm', 'sterile', 'sown_on', 'grade'],
      credentials: {
        owner: ownerKey,
        others: [
          viewer.headers.authorization,
          device.headers.authorization,
          freeLab.owner.headers.authorization,
          'Bearer xpk_live_abc',
          'Basic dXNlcjpwYXNz',
          'Bearer',
          ownerKey.toLowerCase(),
          `${ownerKey}x`,
          `${ownerKey.slice(0, -1)}${ownerKey.endsWith('A') ? 'B' : 'A'}`,
        ],
      },
    };
  });
  afterAll(() => t.close());

  const send = async (req: FuzzRequest): Promise<Answer | null> => {
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, expand(v)]));
    const body = req.body === undefined ? undefined : expand(req.body);
    const url = expand(req.url);
    if (req.transport === 'inject') {
      const res = await t.app.inject({
        method: req.method as 'GET',
        url,
        headers,
        ...(body === undefined ? {} : { payload: body }),
      });
      return { status: res.statusCode, headers: res.headers, body: res.body };
    }
    const { eol, version, host, lines } = req.raw;
    const head = [
      `${req.method} ${url} ${version}`,
      ...(host ? ['Host: localhost'] : []),
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      ...lines.map(expand),
      ...(body === undefined ? [] : [`Content-Length: ${Buffer.byteLength(body)}`]),
      'Connection: close',
    ];
    const exchange = await rawExchange(
      port,
      [Buffer.from(`${head.join(eol)}${eol}${eol}${body ?? ''}`, 'utf8')],
      { timeoutMs: 15_000 },
    );
    const final = exchange.responses.find((r) => r.status >= 200);
    return final === undefined ? null : final;
  };

  /** Records created along the way join the pools, so later requests use them. */
  const learn = (req: FuzzRequest, answer: Answer) => {
    if (req.method !== 'POST' || answer.status !== 201) return;
    const id = (JSON.parse(answer.body) as { data?: { id?: unknown } }).data?.id;
    const resource = req.url.split('?')[0]!.split('/').filter(Boolean).pop() ?? '';
    const kind = resource.replace(/ies$/, 'y').replace(/s$/, '');
    if (typeof id === 'string' && fixtures.ids.has(kind)) fixtures.ids.get(kind)!.push(id);
  };

  it(
    `never answers 5xx; always the envelope with a catalogue code and X-Request-Id (seed ${SEED}, ${RUNS} runs)`,
    async () => {
      const started = Date.now();
      const tally = new Map<string, number>();
      const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);
      const requests = fc.oneof(...operations.map((op) => requestFor(op, fixtures)));
      await fc.assert(
        fc.asyncProperty(requests, async (req) => {
          const answer = await send(req);
          const problems = problemsOf(answer);
          if (problems.length > 0) {
            throw new Error(
              `${req.method} ${req.url.slice(0, 200)} (${req.operationId}, ${req.mutation}, ${req.transport}): ` +
                `${problems.join('; ')}; answered ${answer?.status ?? '-'} ${answer?.body.slice(0, 300) ?? ''}`,
            );
          }
          learn(req, answer!);
          count(`${req.operationId} ${answer!.status}`);
          count(req.transport);
          count(req.mutation === 'none' ? 'valid' : 'mutated');
          count(`status ${answer!.status}`);
        }),
        { numRuns: RUNS, seed: SEED, ...(PATH ? { path: PATH } : {}) },
      );
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const statuses = [...tally]
        .filter(([k]) => k.startsWith('status '))
        .sort()
        .map(([k, n]) => `${k.slice(7)}×${n}`)
        .join(' ');
      console.log(
        `[fuzz ${target.name}] ${RUNS} requests (${tally.get('valid') ?? 0} valid, ${tally.get('mutated') ?? 0} mutated; ` +
          `${tally.get('socket') ?? 0} over a socket) to ${operations.length} operations in ${seconds}s, ` +
          `seed ${SEED}; statuses ${statuses}`,
      );
      // Every operation was exercised, and not only refused.
      for (const op of operations) {
        const answered = [...tally].filter(([k]) => k.startsWith(`${op.operationId} `));
        expect(answered.length, op.operationId).toBeGreaterThan(0);
      }
    },
    Math.max(120_000, RUNS * 40),
  );

  it('leaves every record and list readable afterwards: nothing corrupt was stored', async () => {
    const readAll = async (url: string): Promise<number> => {
      let cursor: string | null = null;
      let pages = 0;
      do {
        const join = url.includes('?') ? '&' : '?';
        const page = `${url}${join}limit=200${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
        const res = await owner.get(page);
        dataOf(res, 200);
        cursor =
          (res.json().meta as { next_cursor?: string | null } | undefined)?.next_cursor ?? null;
        pages += 1;
      } while (cursor !== null);
      return pages;
    };
    const kindOfParam = (name: string) => name.replace(/(_id|Id)$/, '').toLowerCase();
    let reads = 0;
    for (const op of operations.filter((o) => o.method === 'GET')) {
      const pathParams = op.parameters.filter((p) => p.in === 'path');
      const query = op.parameters.filter((p) => p.in === 'query');
      const required = query.filter((p) => p.required);
      if (required.some((p) => !Array.isArray(p.schema.enum))) continue;
      const bases = required.reduce<string[]>(
        (acc, p) =>
          acc.flatMap((q) => (p.schema.enum as string[]).map((v) => `${q}&${p.name}=${v}`)),
        [''],
      );
      const paged = query.some((p) => p.name === 'limit');
      const urls: string[] = [];
      if (pathParams.length === 1) {
        // `/plants/{id}` names a plant; `/devices/{deviceId}/tokens` a device.
        const kind =
          pathParams[0]!.name === 'id'
            ? op.path
                .split('/')
                .filter((s) => s !== '' && !s.startsWith('{'))
                .pop()!
                .replace(/s$/, '')
            : kindOfParam(pathParams[0]!.name);
        for (const id of fixtures.ids.get(kind) ?? []) {
          for (const base of bases)
            urls.push(`${op.path.replace(/\{[^}]+\}/, id)}?${base.slice(1)}`);
        }
      } else if (pathParams.length === 0) {
        const byRecord = query.filter((p) => !p.required && p.schema.format === 'uuid');
        if (byRecord.length === 0)
          for (const base of bases) urls.push(`${op.path}?${base.slice(1)}`);
        for (const p of byRecord) {
          for (const id of fixtures.ids.get(kindOfParam(p.name)) ?? []) {
            for (const base of bases) urls.push(`${op.path}?${base.slice(1)}&${p.name}=${id}`);
          }
        }
      }
      for (const url of urls) {
        if (paged) await readAll(url.replace(/\?&/, '?'));
        else dataOf(await owner.get(url.replace(/\?&/, '?')), 200);
        reads += 1;
      }
    }
    expect(reads).toBeGreaterThan(operations.filter((o) => o.isList).length);
  });
});
