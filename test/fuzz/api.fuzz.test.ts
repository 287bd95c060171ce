import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from '../../src/kernel/errors.js';
import { newId } from '../../src/kernel/ids.js';
import { importLabData } from '../../src/modules/import/import.service.js';
import { createRecordLookup } from '../../src/modules/index.js';
import { mintDeviceToken } from '../../src/modules/devices/index.js';
import { DEFAULT_STAGE_LISTS, replaceStageList } from '../../src/modules/records/index.js';
import {
  addRoom,
  dataOf,
  defineCustomFields,
  GENEROUS_LIMITS,
  newExplant,
  newPlant,
} from '../support/helpers.js';
import { fixture } from '../files/fixtures.js';
import { subcultureSop } from '../records/sop-helpers.js';
import { newDemand, newTask, placeByHand } from '../records/task-helpers.js';
import { createLab } from '../support/harness.js';
import { rawExchange } from '../support/raw-http.js';
import {
  deliveryWorker,
  drain,
  LOOPBACK_ALLOWED,
  startReceiver,
  type Receiver,
} from '../webhooks/support.js';
import { operationsOf, type OpenApiDocument, type OperationSpec } from './operations.js';
import {
  expand,
  kindOf,
  kindOfCollection,
  requestFor,
  SESSION_COOKIE,
  SIGN_IN_LINK,
  type Fixtures,
  type FuzzRequest,
} from './requests.js';
import { mintLink, signIn } from '../support/sessions.js';
import { ResponseShapes } from './responses.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

/**
 * Property-based fuzzing of every operation in the served OpenAPI document, on
 * every database: valid requests generated from the operation's schemas (with ids
 * of a seeded workspace) and mutated ones (wrong types, extreme numbers, NUL bytes,
 * huge strings, unknown and missing fields, malformed ids and dates, bad
 * percent-encoding, odd headers and request lines over a real socket, bodies that
 * are not objects). Every answer must be the envelope with a catalogue code and an
 * X-Request-Id, never a 5xx; a success exactly its documented shape (no undocumented
 * field, every required one with its type); every operation must succeed at least once
 * (what a schema cannot say, which record an id must name and which fields exclude
 * each other, comes from the fixtures); afterwards every record must still read back.
 *
 * VITRO_FUZZ_RUNS (requests per database, default 6000) sets the budget; VITRO_FUZZ_SEED
 * (default fixed) replays a run, with VITRO_FUZZ_PATH to replay fast-check's
 * reported counterexample directly.
 */
const RUNS = Number(process.env.VITRO_FUZZ_RUNS ?? 6000);
const SEED = Number(process.env.VITRO_FUZZ_SEED ?? 20261121);
const PATH = process.env.VITRO_FUZZ_PATH;

const TINY_PNG = fixture('tiny.png').toString('base64');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A run of the default size or more gets every operation through at least once. */
const MIN_SUCCESSES = RUNS >= 6000 ? 1 : 0;
/**
 * Operations whose valid requests succeed only in a state the fuzz's own earlier
 * requests keep destroying (a split needs an explant not archived or ended, with the
 * vessels its daughters take; a batch needs its lots to hold what its components
 * take; marking read needs ids of the caller's own notifications or `all` alone). They
 * are still sent, and held to the envelope and their documented shapes; their
 * successes are tested in their own suites (lineage, media-batches, notifications).
 */
const STATE_BOUND = new Set(['splitExplant', 'createMediaBatch', 'markNotificationsRead']);

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

function problemsOf(answer: Answer | null, shapeOf: (body: unknown) => string[]): string[] {
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
  } else {
    problems.push(...shapeOf(envelope));
  }
  return problems;
}

describeOnDatabases('OpenAPI-driven fuzz', (target) => {
  // Every host name resolves to loopback, which the download refuses: an image_url
  // never reaches DNS or the network.
  const { t, lab, owner } = labSuite(
    target,
    {
      env: { ...GENEROUS_LIMITS, ...LOOPBACK_ALLOWED },
      imageFetch: { resolver: async () => ['127.0.0.1'] },
    },
    { shared: true },
  );
  let port: number;
  let operations: OperationSpec[];
  let shapes: ResponseShapes;
  let fixtures: Fixtures;
  let receiver: Receiver;
  /** The owner's console session: ended by a fuzzed sign-out, then opened again. */
  let session: Awaited<ReturnType<typeof signIn>>;
  let ownerMemberId: string;
  /** Puts back the lab's stage lists and custom fields that the fuzzed writes of them replaced. */
  let restoreLabSetup: () => Promise<void>;

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    operations = operationsOf(doc as OpenApiDocument);
    shapes = new ResponseShapes(doc as OpenApiDocument);

    const fields = (['plant', 'explant', 'transfer', 'contamination'] as const).flatMap(
      (entity) => [
        { entity, key: 'clone', type: 'text' as const },
        { entity, key: 'height_cm', type: 'number' as const },
        { entity, key: 'sterile', type: 'boolean' as const },
        { entity, key: 'sown_on', type: 'date' as const },
        { entity, key: 'grade', type: 'select' as const, options: ['A', 'B'] },
      ],
    );
    await defineCustomFields(t.database, lab.workspaceId, fields);
    restoreLabSetup = async () => {
      await defineCustomFields(t.database, lab.workspaceId, fields);
      await inTransaction(t.database.db, async (trx) => {
        for (const entity of ['plant', 'explant'] as const) {
          await replaceStageList(trx, lab.workspaceId, entity, DEFAULT_STAGE_LISTS[entity]);
        }
      });
    };
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
      // Vessels for splits to take.
      await newExplant(owner, { label: 'E-3', initial_count: 400 }),
      await newExplant(owner, { label: 'E-4', initial_count: 400 }),
      // More operations draw on the pool since media batches: enough living ones to split.
      await newExplant(owner, { label: 'E-7', initial_count: 400 }),
      await newExplant(owner, { label: 'E-8', initial_count: 400 }),
      await newExplant(owner, { label: 'E-9', initial_count: 400 }),
    ];
    // Explants only merges name (no other operation archives or ends them).
    const pooled = [
      (await newExplant(owner, { label: 'E-5', initial_count: 4 })).id as string,
      (await newExplant(owner, { label: 'E-6', initial_count: 4 })).id as string,
    ];
    // Two counted transfers a day apart, yesterday and the day before: a 4-week rate for
    // GET /insights/forecast.
    for (const [days, vessels] of [
      [2, 2],
      [1, 3],
    ] as const) {
      dataOf(
        await owner.post('/api/v1/transfers', {
          explant_id: explants[0].id,
          vessel_count: vessels,
          transfer_date: new Date(Date.now() - days * 86_400_000).toISOString(),
        }),
        201,
      );
    }
    const transfers = [
      dataOf(
        await owner.post('/api/v1/transfers', {
          explant_id: explants[0].id,
          vessel_count: 6,
          custom_fields: { clone: 'c1' },
        }),
        201,
      ),
      dataOf(await owner.post('/api/v1/transfers', { plant_id: plants[1].id }), 201),
    ];
    const contaminations = [
      dataOf(
        await owner.post('/api/v1/contaminations', {
          explant_id: explants[1].id,
          type: 'bacteria',
          issue: 'Cloudy medium',
        }),
        201,
      ),
      dataOf(
        await owner.post('/api/v1/contaminations', {
          plant_id: plants[0].id,
          type: 'other',
          type_other: 'Mites',
          issue: 'Webbing',
        }),
        201,
      ),
    ];
    const recipe = (fields: Record<string, unknown>) =>
      owner.post('/api/v1/media-recipes', {
        title: 'MS + BAP',
        components: [{ name: 'MS basal salts', qty: '4.4', unit: 'g/L' }],
        ...fields,
      });
    const recipes = [
      dataOf(await recipe({ ph_target: 5.8 }), 201).id as string,
      dataOf(await recipe({ visibility: 'team', status: 'draft' }), 201).id as string,
    ];
    const labelled: string = plants[0].id;
    const contents = explants.map((e) => ({ record_type: 'explant', record_id: e.id as string }));
    const sop = subcultureSop();
    const equipment = [newId(), newId()];
    const productLink = newId();
    const pricedPlant: string = plants[0].id;
    const usd = (amount: string) => ({ amount, currency: 'USD' });
    await inTransaction(t.database.db, (trx) =>
      importLabData(
        trx,
        lab.workspaceId,
        {
          labels: [
            { barcode: 'FZ-P-1', record_type: 'plant', record_id: labelled, display_name: 'P' },
            {
              barcode: 'FZ-C-1',
              record_type: 'container',
              record_id: newId(),
              display_name: 'Tray',
              contents,
            },
          ],
          sops: [sop.sop],
          equipment: [
            { id: equipment[0], name: 'Balance', category: 'balance_scale' },
            {
              id: equipment[1],
              name: 'Old hood',
              category: 'laminar_flow_hood',
              status: 'archived',
            },
          ],
          culture_line_prices: [
            { plant_id: pricedPlant, list_price: usd('18.50'), pricing_tier: 'A' },
          ],
          price_events: [
            {
              plant_id: pricedPlant,
              list_price: usd('18.50'),
              previous_list_price: { amount: '15', currency: 'EUR' },
              changed_at: '2026-11-01T10:00:00Z',
            },
          ],
          order_lines: [
            {
              plant_id: pricedPlant,
              product_link_id: productLink,
              quantity: 3,
              unit_price: usd('18.50'),
              occurred_at: '2026-11-02T10:00:00Z',
            },
            { plant_id: null, quantity: 1, unit_price: null, occurred_at: null },
          ],
        },
        createRecordLookup(),
      ),
    );
    const runs = [
      dataOf(await owner.post('/api/v1/sop-runs', { sop_id: sop.ids.sop }), 201).id as string,
      dataOf(await owner.post('/api/v1/sop-runs', { sop_id: sop.ids.sop }), 201).id as string,
    ];
    dataOf(
      await owner.post(`/api/v1/sop-runs/${runs[0]}/steps/step-1/events`, { event_type: 'note' }),
      201,
    );
    dataOf(await owner.post(`/api/v1/sop-runs/${runs[1]}/complete`, { outcome: 'failed' }), 200);
    const autoclaveRun = dataOf(
      await owner.post(`/api/v1/equipment/${equipment[0]}/events`, {
        kind: 'used',
        subject_type: 'sop_log',
        subject_id: runs[0],
      }),
      201,
    ).id as string;
    // Stock and media batches: lots large enough for any amount a batch takes.
    const stockItems = [
      dataOf(
        await owner.post('/api/v1/stock-items', { name: 'Agar', category: 'agar', unit: 'g' }),
        201,
      ).id as string,
    ];
    const lots = [
      dataOf(
        await owner.post(`/api/v1/stock-items/${stockItems[0]}/lots`, {
          lot_number: 'AG-1',
          quantity: 1e12,
        }),
        201,
      ).id as string,
    ];
    const batch = async () =>
      dataOf(
        await owner.post('/api/v1/media-batches', { recipe_id: recipes[1], volume_ml: 1000 }),
        201,
      ).id as string;
    // Batches the fuzz may update (discard), and batches cultures are put on, which no
    // operation discards: a transfer, split or new explant naming one can succeed.
    const mediaBatches = [await batch()];
    const usableBatches = [await batch(), await batch()];
    const device = await lab.deviceToken();
    // A second token of the device, so that token paths name a real one.
    const spareToken = await inTransaction(t.database.db, (trx) =>
      mintDeviceToken(trx, { workspaceId: lab.workspaceId, deviceId: device.deviceId }),
    );
    const viewer = await lab.actor('viewer');
    const tasks = [
      await newTask(owner, { assigned_to: viewer.memberId, due_date: '2026-12-01T08:00:00Z' }),
      await newTask(owner, { entity_type: 'plant', entity_id: plants[1].id, genus: 'Alocasia' }),
      await newTask(owner, { category: 'other', category_label: 'Visit', workflow_status: 'done' }),
    ];
    await placeByHand(t.database, lab.workspaceId, tasks[1].id, {
      priority: 'high',
      priority_rank: 1,
    });
    await newDemand(owner, { genus: 'Alocasia', demand_score: 12.5 });
    const onPlant = { entity_type: 'plant', entity_id: plants[0].id as string };
    const topComment = dataOf(
      await owner.post('/api/v1/comments', {
        ...onPlant,
        body: 'Browning at the base',
        mentioned_user_ids: [viewer.memberId],
        references: [{ entity_type: 'explant', entity_id: explants[0].id, label: 'E 1' }],
      }),
      201,
    ).id as string;
    const replyComment = dataOf(
      await owner.post('/api/v1/comments', { ...onPlant, body: 'Agreed', parent_id: topComment }),
      201,
    ).id as string;
    const asset = dataOf(
      await owner.post('/api/v1/assets', {
        target: 'plant',
        target_id: plants[0].id,
        image_base64: TINY_PNG,
        caption: 'Roots',
      }),
      201,
    ).id as string;
    // A webhook endpoint with a delivery in its log. It is reached only through its
    // delivery (as the parent of deliveryId), so no fuzzed request deletes or disables
    // it; the endpoints in the pool are spares the fuzz may do anything to.
    receiver = await startReceiver();
    const hooked = dataOf(await owner.post('/api/v1/webhook-endpoints', { url: receiver.url }), 201)
      .id as string;
    await newPlant(owner, { species: 'Philodendron' });
    const worker = deliveryWorker(t);
    await drain(worker);
    await worker.stop();
    const delivery = dataOf(
      await owner.get(`/api/v1/webhook-endpoints/${hooked}/deliveries`),
      200,
    )[0].id as string;
    const spareEndpoints = [];
    for (const description of ['spare 1', 'spare 2', 'spare 3']) {
      spareEndpoints.push(
        dataOf(
          await owner.post('/api/v1/webhook-endpoints', { url: receiver.url, description }),
          201,
        ).id as string,
      );
    }
    // An alert rule with an open alert.
    const alertRule = dataOf(
      await owner.post('/api/v1/alert-rules', {
        name: 'Too warm',
        sensor_type: 'temperature',
        device_id: device.deviceId,
        condition: 'above',
        threshold: 28,
      }),
      201,
    ).id as string;
    dataOf(
      await owner.post('/api/v1/sensor-readings', {
        device_id: device.deviceId,
        type: 'temperature',
        value: 30,
        unit: 'C',
      }),
      201,
    );
    const alert = dataOf(await owner.get('/api/v1/alerts'), 200)[0].id as string;
    const freeLab = await createLab(t.database, { plan: 'free', name: 'Free lab' });
    const ownerKey = lab.owner.headers.authorization;
    ownerMemberId = lab.owner.memberId;
    session = await signIn(t, ownerMemberId);
    // A member and a key the console operations may change, remove and revoke.
    const spare = await lab.actor('member');
    fixtures = {
      ids: new Map([
        ['plant', plants.map((p) => p.id as string)],
        ['explant', explants.map((e) => e.id as string)],
        // Merges: the explants pooled, and the one they go into.
        ['explant_ids', pooled],
        ['into_explant', pooled],
        ['transfer', transfers.map((x: { id: string }) => x.id)],
        ['contamination', contaminations.map((x: { id: string }) => x.id)],
        ['room', rooms],
        ['device', [device.deviceId]],
        ['token', [spareToken.id]],
        ['workspace', [lab.workspaceId]],
        ['member', [lab.owner.memberId, spare.memberId]],
        ['api-key', [spare.keyId]],
        ['media-recipe', recipes],
        ['task', tasks.map((task) => task.id as string)],
        ['assigned_to', [lab.owner.memberId, viewer.memberId]],
        ['sop', [sop.ids.sop]],
        ['version', [sop.ids.v1, sop.ids.v2, sop.ids.v3]],
        ['sop-run', [...runs]],
        ['equipment', [...equipment]],
        ['product_link', [productLink]],
        ['asset', [asset]],
        // `entity_id` of comments (and their references) and of task links.
        ['entity', [...plants, ...explants].map((r: { id: string }) => r.id)],
        ['comment', [topComment, replyComment]],
        ['parent', [topComment, replyComment]],
        ['mentioned_user_ids', [lab.owner.memberId, viewer.memberId]],
        ['webhook-endpoint', spareEndpoints],
        ['delivery', [delivery]],
        ['alert-rule', [alertRule]],
        ['rule', [alertRule]],
        ['alert', [alert]],
        ['media-batch', mediaBatches],
        ['media_batch', usableBatches],
        ['recipe', recipes],
        ['prepared_by', [lab.owner.memberId, spare.memberId]],
        ['autoclave_event', [autoclaveRun]],
        ['stock-item', stockItems],
        ['lot', lots],
      ]),
      parentOf: new Map([
        [spareToken.id, device.deviceId],
        [sop.ids.v1, sop.ids.sop],
        [sop.ids.v2, sop.ids.sop],
        [sop.ids.v3, sop.ids.sop],
        [delivery, hooked],
        [lots[0]!, stockItems[0]!],
      ]),
      exclusive: [
        ['plant_id', 'explant_id'],
        ['image_url', 'image_base64'],
        ['room_id', 'device_id'],
        ['plant_ids', 'explant_ids'],
        // A merge makes a new explant (its label, stage and room) or pools into one.
        ['into_explant_id', 'initial_stage'],
        ['into_explant_id', 'room_id'],
        ['label', 'into_explant_id'],
        // A reading's time: `timestamp` is the older name of `recorded_at`.
        ['recorded_at', 'timestamp'],
      ],
      // Equipment use names its subject by the log's type.
      kindOfType: {
        sop_log: 'sop-run',
        plant_transfer: 'transfer',
        explant_transfer: 'transfer',
        contamination_log: 'contamination',
      },
      hints: {
        stage: Object.values(DEFAULT_STAGE_LISTS).flatMap((list) =>
          list.flatMap((s) => [s.key, s.name]),
        ),
        initial_stage: [...DEFAULT_STAGE_LISTS.plant, ...DEFAULT_STAGE_LISTS.explant].map(
          (s) => s.name,
        ),
        entered_on: ['2026-01-01', '2026-03-01T10:00:00Z', '2026-03-01T10:00:00+02:00'],
        transfer_date: ['2026-01-01', '2026-03-01T10:00:00Z', '2026-03-01T10:00:00+02:00'],
        since: ['2026-01-01T00:00:00Z', '2026-01-01'],
        clone: ['c1', 'FL-A'],
        height_cm: [0, 12.5, -3, 1e300],
        sterile: [true, false],
        sown_on: ['2026-02-28', '2024-02-29'],
        grade: ['A', 'B'],
        barcode: ['FZ-P-1', 'FZ-C-1', 'E-2', 'b-2', 'fz-p-1', 'NOPE'],
        // Label codes of a few records (GET /labels/codes).
        plant_ids: [plants[0].id, plants.map((p) => p.id as string).join(',')],
        explant_ids: [explants[0].id, explants.map((e) => e.id as string).join(',')],
        genus: ['Alocasia', 'Monstera', 'monstera'],
        category_label: ['Grower visit'],
        stepId: ['step-1', 'step-2', 'step-3', 'step-4'],
        metric: ['ph', 'temperature', 'mass'],
        pricing_tier: ['A', 'B'],
        image_base64: [TINY_PNG, `data:image/png;base64,${TINY_PNG}`],
        url: [receiver.url, 'https://hooks.example.org/vitro'],
        threshold: [28, -5.5],
        // A daughter of a split takes a vessel or two of the explant's.
        vessel_count: [1, 2],
        duration_minutes: [0, 10],
      },
      mapKeys: ['clone', 'height_cm', 'sterile', 'sown_on', 'grade'],
      credentials: {
        consoleOrigin: t.config.publicUrl,
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
  afterAll(() => receiver.close());

  /** The owner's session cookie and fresh sign-in links, filled in as a request is sent. */
  const withCredentials = async (value: string): Promise<string> => {
    let out = value.split(SESSION_COOKIE).join(session.cookie);
    if (out.includes(SIGN_IN_LINK)) {
      out = out.split(SIGN_IN_LINK).join((await mintLink(t, ownerMemberId)).secret);
    }
    return out;
  };

  const send = async (req: FuzzRequest): Promise<Answer | null> => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k] = expand(await withCredentials(v));
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

  /**
   * Records created along the way join the pools, so later requests use them; one made
   * under another (`/devices/{id}/tokens`) remembers its parent.
   */
  const learn = (req: FuzzRequest, answer: Answer) => {
    // A deleted record leaves its pool: it reads back no more. By its method, not its
    // operation: a mutation may turn another operation's request into a DELETE.
    if (req.method === 'DELETE' && answer.status === 200) {
      const id = (JSON.parse(answer.body) as { data?: { id?: unknown } }).data?.id;
      for (const pool of fixtures.ids.values()) {
        const at = pool.indexOf(String(id));
        if (at >= 0) pool.splice(at, 1);
      }
      return;
    }
    if (req.method !== 'POST' || answer.status !== 201) return;
    const id = (JSON.parse(answer.body) as { data?: { id?: unknown } }).data?.id;
    const segments = req.url.split('?')[0]!.split('/').filter(Boolean);
    const kind = kindOfCollection(segments[segments.length - 1] ?? '');
    if (typeof id !== 'string' || !fixtures.ids.has(kind)) return;
    fixtures.ids.get(kind)!.push(id);
    const parent = segments[segments.length - 2] ?? '';
    if (UUID.test(parent)) fixtures.parentOf.set(id, parent);
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
          const op = operations.find((o) => o.operationId === req.operationId)!;
          const problems = problemsOf(answer, (envelope) =>
            shapes.problemsOf(req.method, op.path, answer!.status, envelope),
          );
          if (problems.length > 0) {
            throw new Error(
              `${req.method} ${req.url.slice(0, 200)} (${req.operationId}, ${req.mutation}, ${req.transport}): ` +
                `${problems.join('; ')}; answered ${answer?.status ?? '-'} ${answer?.body.slice(0, 300) ?? ''}`,
            );
          }
          learn(req, answer!);
          // The lab's setup stays the fixtures' for the next requests.
          const setupWrite = ['updateStageLists', 'updateCustomFields'].includes(req.operationId);
          if (setupWrite && answer!.status === 200) await restoreLabSetup();
          // A sign-out (or a request turned into one by a changed method) ended the
          // owner's session: sign in again for the next requests.
          const path = req.url.split('?')[0];
          const signOut = path === '/api/v1/session' || path === '/api/v1/sessions';
          if (req.method === 'DELETE' && signOut && answer!.status === 200) {
            session = await signIn(t, ownerMemberId);
          }

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
      // Every operation was exercised, and not only refused: a valid request of each got
      // through, so each success answer was held to its documented shape (5 or more
      // times each with the default seed).
      const succeeded = (op: OperationSpec) =>
        [...tally]
          .filter(([k]) => k.startsWith(`${op.operationId} 2`))
          .reduce((sum, [, n]) => sum + n, 0);
      const rarely = operations
        .filter((op) => !STATE_BOUND.has(op.operationId))
        .filter((op) => succeeded(op) < MIN_SUCCESSES)
        .map((op) => `${op.operationId} ${succeeded(op)}`);
      expect(rarely, `operations that never succeeded`).toEqual([]);
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
        const res = await reader(page);
        dataOf(res, 200);
        cursor =
          (res.json().meta as { next_cursor?: string | null } | undefined)?.next_cursor ?? null;
        pages += 1;
      } while (cursor !== null);
      return pages;
    };
    let reads = 0;
    let reader = (url: string) => owner.get(url);
    // A sign-in link's own read (whom a link signs in) takes a link, not a stored record.
    for (const op of operations.filter(
      (o) => o.method === 'GET' && o.credentials !== 'sign-in-link',
    )) {
      reader = op.credentials === 'session' ? (url) => session.get(url) : (url) => owner.get(url);
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
        const kind = kindOf(pathParams[0]!.name, op.path);
        for (const id of fixtures.ids.get(kind) ?? []) {
          for (const base of bases)
            urls.push(`${op.path.replace(/\{[^}]+\}/, id)}?${base.slice(1)}`);
        }
      } else if (pathParams.length === 0) {
        const byRecord = query.filter((p) => !p.required && p.schema.format === 'uuid');
        if (byRecord.length === 0)
          for (const base of bases) urls.push(`${op.path}?${base.slice(1)}`);
        for (const p of byRecord) {
          for (const id of fixtures.ids.get(kindOf(p.name, op.path)) ?? []) {
            for (const base of bases) urls.push(`${op.path}?${base.slice(1)}&${p.name}=${id}`);
          }
        }
      }
      for (const url of urls) {
        if (paged) await readAll(url.replace(/\?&/, '?'));
        else dataOf(await reader(url.replace(/\?&/, '?')), 200);
        reads += 1;
      }
    }
    // Comments are listed per record (entity_type and entity_id both required).
    const commented = {
      plant: 'plant',
      explant: 'explant',
      task: 'task',
      'media-recipe': 'media_recipe',
    };
    reader = (url) => owner.get(url);
    for (const [pool, type] of Object.entries(commented)) {
      for (const id of fixtures.ids.get(pool) ?? []) {
        await readAll(`/api/v1/comments?entity_type=${type}&entity_id=${id}`);
        reads += 1;
      }
    }
    expect(reads).toBeGreaterThan(operations.filter((o) => o.isList).length);
  });
});
