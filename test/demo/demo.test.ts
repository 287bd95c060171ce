import { afterAll, beforeAll, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import type { BlobStore } from '../../src/files/blob-store.js';
import { createBlobStore } from '../../src/files/create-blob-store.js';
import { demoPhotos, discardDemoPhotos } from '../../src/modules/demo/demo.photos.js';
import { createDemoLab } from '../../src/modules/demo/demo.service.js';
import { createRecordLookup } from '../../src/modules/index.js';
import { countRows } from '../import/fixtures.js';
import { body } from '../support/harness.js';
import { appSuite, describeOnDatabases } from '../support/suite.js';

describeOnDatabases('demo lab', (target) => {
  const { t } = appSuite(target);
  let lab: { workspace_id: string; key: string };
  let headers: { authorization: string };
  let store: BlobStore;
  beforeAll(async () => {
    store = await createBlobStore(t.config);
    lab = await inTransaction(t.database.db, (trx) =>
      createDemoLab(trx, createRecordLookup(), new Date(), demoPhotos(store)),
    );
    headers = { authorization: `Bearer ${lab.key}` };
  });
  afterAll(() => store.close());

  it('hands out an owner key with every scope on the teams plan', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/me', headers });
    expect(res.statusCode).toBe(200);
    const me = body(res).data;
    expect(me).toMatchObject({
      role: 'owner',
      apiAccess: 'full',
      workspace: { id: lab.workspace_id },
    });
    expect(me.effectiveScopes).toHaveLength(46);
  });

  it('has plants with stage history and change-history events', async () => {
    const plants = body(await t.request({ method: 'GET', url: '/api/v1/plants', headers })).data;
    expect(plants.map((p: { species: string }) => p.species)).toEqual(
      expect.arrayContaining([
        'Monstera deliciosa',
        'Alocasia micholitziana',
        'Anthurium warocqueanum',
      ]),
    );
    const banana = plants.find((p: { species: string }) => p.species === 'Musa acuminata');
    const stages = body(
      await t.request({ method: 'GET', url: `/api/v1/stages?plant_id=${banana.id}`, headers }),
    ).data;
    expect(stages.map((s: { stage: string; status: string }) => [s.stage, s.status])).toEqual([
      ['greenhouse', 'active'],
      ['hardening_off', 'completed'],
      ['production', 'completed'],
      ['mother_block', 'completed'],
    ]);
    const events = body(
      await t.request({ method: 'GET', url: '/api/v1/events?entity=plant&limit=200', headers }),
    ).data;
    expect(
      events.filter((e: { event_type: string }) => e.event_type === 'stage_change'),
    ).toHaveLength(8);
  });

  it('has explants with counts, linked to plants, in later stages', async () => {
    const explants = body(
      await t.request({ method: 'GET', url: '/api/v1/explants', headers }),
    ).data;
    expect(explants).toHaveLength(4);
    const monstera = explants.find((e: { label: string }) => e.label === 'MON-TC-B01');
    expect(monstera).toMatchObject({ initial_count: 10, current_count: 24, plantlet_count: 96 });
    expect(monstera.plant_id).toEqual(expect.any(String));
    const stages = body(
      await t.request({ method: 'GET', url: `/api/v1/stages?explant_id=${monstera.id}`, headers }),
    ).data;
    expect(stages[0]).toMatchObject({ stage: 'multiplication', status: 'active' });
  });

  it('has transfers with counts on its explants, applied to them, and one open contamination', async () => {
    const get = async (url: string) =>
      body(await t.request({ method: 'GET', url, headers })).data as Record<string, unknown>[];
    const explants = await get('/api/v1/explants');
    const byLabel = (label: string) => explants.find((e) => e.label === label)!;
    const monstera = byLabel('MON-TC-B01');
    const transfers = await get(`/api/v1/transfers?explant_id=${String(monstera.id)}`);
    expect(transfers.map((x) => [x.transfer_cycle, x.vessel_count, x.plantlet_count])).toEqual([
      [3, 24, 96],
      [2, 18, 64],
      [1, 12, 30],
    ]);
    // The newest transfer's counts are the explant's.
    expect(monstera).toMatchObject({ current_count: 24, plantlet_count: 96 });
    expect(byLabel('ANT-WAR-B01')).toMatchObject({
      initial_count: 6,
      current_count: 5,
      plantlet_count: null,
    });
    const events = await get('/api/v1/events?entity=explant&limit=200');
    expect(events.filter((e) => e.event_type === 'transfer')).toHaveLength(9);
    expect(events.filter((e) => e.event_type === 'contamination')).toHaveLength(2);

    const open = await get('/api/v1/contaminations?status=active');
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      type: 'bacteria',
      severity: 'medium',
      vessels_affected: 1,
      explant_ids: [byLabel('ANT-WAR-B01').id],
      plant_ids: [],
      stage: 'initiation',
    });
    expect(await get('/api/v1/contaminations')).toHaveLength(2);
    // The other one was resolved through the API: how, by whom, and in the history.
    const [resolved] = await get('/api/v1/contaminations?open=false');
    expect(resolved).toMatchObject({
      status: 'resolved',
      resolution_outcome: 'discarded',
      resolution_notes: 'Both vessels autoclaved; hood pre-filter replaced.',
      resolved_by: expect.any(String),
    });
    expect(events.filter((e) => e.event_type === 'contamination_resolved')).toHaveLength(1);
  });

  it("has what the console's lists and Today screen read: current stages, rooms, people", async () => {
    const get = async (url: string) =>
      body(await t.request({ method: 'GET', url, headers })).data as Record<string, unknown>[];
    const explants = await get('/api/v1/explants');
    expect(explants.every((e) => e.current_stage !== null)).toBe(true);
    const rooms = await get('/api/v1/rooms');
    expect(rooms.length).toBeGreaterThan(0);
    const counted = rooms.reduce(
      (sum, room) => sum + Number(room.plant_count) + Number(room.explant_count),
      0,
    );
    expect(counted).toBeGreaterThan(0);
    const inRoom = rooms.find((room) => Number(room.explant_count) > 0)!;
    expect(await get(`/api/v1/explants?room_id=${String(inRoom.id)}`)).toHaveLength(
      Number(inRoom.explant_count),
    );
    expect((await get('/api/v1/people')).length).toBeGreaterThanOrEqual(3);
    expect((await get('/api/v1/activity?limit=5')).length).toBe(5);
  });

  it('has comments: a thread on the contaminated batch with replies and a mention', async () => {
    const get = async (url: string) =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON bodies loosely
      body(await t.request({ method: 'GET', url, headers })).data as Record<string, any>[];
    const explants = await get('/api/v1/explants');
    const byLabel = (label: string) => explants.find((e) => e.label === label)!;
    const anthurium = byLabel('ANT-WAR-B01');
    const thread = await get(`/api/v1/comments?entity_type=explant&entity_id=${anthurium.id}`);
    expect(thread.map((c) => [c.author.name, c.parent_id === null])).toEqual([
      ['Maya Chen', true],
      ['Luis Ortega', false],
      ['Priya Natarajan', false],
    ]);
    const [first, reply, followUp] = thread;
    expect(reply!.parent_id).toBe(first!.id);
    expect(followUp!.parent_id).toBe(first!.id);
    // The first comment mentions the manager, who answers it.
    expect(first!.mentioned_user_ids).toEqual([reply!.author.id]);
    expect(first!.body).toContain('@Luis Ortega');
    const plants = await get('/api/v1/plants');
    const mother = plants.find((p) => p.species === 'Anthurium warocqueanum')!;
    expect(first!.references).toEqual([
      { entity_type: 'plant', entity_id: mother.id, label: 'ANT-WAR mother plant' },
    ]);
    expect(thread.every((c) => c.status === 'active')).toBe(true);
    const monstera = byLabel('MON-TC-B01');
    expect(await get(`/api/v1/comments?entity_type=explant&entity_id=${monstera.id}`)).toHaveLength(
      1,
    );
  });

  it('has library data: SOPs, equipment, labels, prices and order lines', async () => {
    expect(await countRows(t.database.db, lab.workspace_id)).toMatchObject({
      rooms: 3,
      sops: 3,
      sop_versions: 4,
      equipment: 6,
      labels: 6,
      label_contents: 2,
      culture_line_prices: 5,
      price_events: 5,
      order_lines: 100,
    });
    const effective = await t.database.db
      .selectFrom('sop_versions')
      .select(['sop_id', 'steps'])
      .where('workspace_id', '=', lab.workspace_id)
      .where('lifecycle_status', '=', 'effective')
      .execute();
    expect(effective).toHaveLength(2);
    const steps = effective.flatMap((v) => JSON.parse(v.steps) as { id: string }[]);
    expect(steps.map((s) => s.id)).toContain('step-1');
  });

  it("has a shared media recipe at its second version and the owner's private draft", async () => {
    const recipes = body(
      await t.request({ method: 'GET', url: '/api/v1/media-recipes', headers }),
    ).data;
    expect(
      recipes.map((r: { title: string; visibility: string; status: string; version: number }) => [
        r.title,
        r.visibility,
        r.status,
        r.version,
      ]),
    ).toEqual([
      ['Half MS + IBA (rooting trial)', 'private', 'draft', 1],
      ['MS + BAP (aroid multiplication)', 'team', 'active', 2],
    ]);
    const shared = recipes[1];
    expect(shared.ph_target).toBe(5.8);
    expect(shared.components.map((c: { qty: string }) => c.qty)).toEqual(['4.4', '30', '1.5', '7']);
    const versions = await t.database.db
      .selectFrom('media_recipe_versions')
      .select('version')
      .where('recipe_id', '=', shared.id)
      .orderBy('version')
      .execute();
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
  });

  it('resolves its labels and has a scan of one', async () => {
    const container = body(
      await t.request({
        method: 'GET',
        url: '/api/v1/labels/resolve?barcode=VT-C-0001',
        headers,
      }),
    ).data;
    expect(container).toMatchObject({ record_type: 'container', display_name: expect.any(String) });
    expect(container.contents.map((c: { display_name: string }) => c.display_name)).toEqual([
      'MON-TC-B01',
      'ANT-WAR-B01',
    ]);
    const plant = body(
      await t.request({ method: 'GET', url: '/api/v1/labels/resolve?barcode=mus-gn-01', headers }),
    ).data;
    expect(plant).toMatchObject({ record_type: 'plant', display_name: "Banana 'Grand Nain'" });
    const scans = await t.database.db
      .selectFrom('label_scans')
      .select(['barcode', 'explant_id', 'context'])
      .where('workspace_id', '=', lab.workspace_id)
      .execute();
    expect(scans).toEqual([
      {
        barcode: 'VT-E-0001',
        explant_id: container.contents[0].record_id,
        context: 'transfer bench',
      },
    ]);
  });

  it('has SOP runs: one completed, one in progress with step evidence and a measurement', async () => {
    const runs = await t.database.db
      .selectFrom('sop_runs')
      .select('id')
      .where('workspace_id', '=', lab.workspace_id)
      .orderBy('started_at')
      .execute();
    expect(runs).toHaveLength(2);
    const [done, open] = await Promise.all(
      runs.map(async (run) => {
        const res = await t.request({ method: 'GET', url: `/api/v1/sop-runs/${run.id}`, headers });
        expect(res.statusCode).toBe(200);
        return body(res).data;
      }),
    );
    expect(done).toMatchObject({ status: 'completed', version: 2, progress: 100 });
    expect(done.completedAt).toEqual(expect.any(String));
    expect(done.plantId).toEqual(expect.any(String));
    expect(open).toMatchObject({ status: 'in_progress', completedAt: null, progress: 66.67 });
    expect(open.events.map((e: { eventType: string }) => e.eventType)).toEqual([
      'confirmed',
      'confirmed',
      'scanned',
      'measured',
    ]);
    expect(open.events.at(-1)).toMatchObject({
      stepKey: 'step-4',
      payload: { metric: 'ph', value: 5.76, unit: 'pH', notes: 'Adjusted with 1 M KOH' },
    });
    const sop = body(
      await t.request({ method: 'GET', url: `/api/v1/sops/${open.sopId}`, headers }),
    ).data;
    expect(sop.version.id).toBe(open.versionId);
  });

  it('has calibrated and maintained equipment, from its recorded events', async () => {
    const get = async (url: string) =>
      body<{ data: Record<string, unknown>[] }>(await t.request({ method: 'GET', url, headers }));
    const equipment = (await get('/api/v1/equipment')).data;
    expect(equipment).toHaveLength(6);
    const byName = Object.fromEntries(equipment.map((e) => [e.name, e]));
    const balance = byName['Analytical balance']!;
    expect(balance.last_calibrated_at).toEqual(expect.any(String));
    expect(String(balance.next_calibration_due_at) > new Date().toISOString()).toBe(true);
    expect(byName['Autoclave 1']).toMatchObject({
      last_calibrated_at: expect.any(String),
      last_maintenance_at: expect.any(String),
    });
    expect(byName['pH meter']!.last_calibrated_at).toEqual(expect.any(String));
    expect(byName['Laminar flow hood']!.next_maintenance_due_at).toEqual(expect.any(String));
    expect(byName['Pressure cooker (retired)']).toMatchObject({
      status: 'archived',
      last_calibrated_at: null,
    });

    const history = (await get(`/api/v1/equipment/${String(byName['Autoclave 1']!.id)}/events`))
      .data;
    expect(history.map((e) => e.kind)).toEqual([
      'used',
      'calibration',
      'service',
      'fault',
      'preventive_maintenance',
    ]);
    expect(byName['Autoclave 1']!.last_maintenance_at).toBe(history[2]!.occurred_at);
    const hood = (await get(`/api/v1/equipment/${String(byName['Laminar flow hood']!.id)}/events`))
      .data;
    expect(hood.filter((e) => e.kind === 'used').map((e) => e.subject_type)).toEqual([
      'explant_transfer',
      'explant_transfer',
    ]);
  });

  it('has prices, price changes and a month of store sales in two currencies', async () => {
    const get = async (url: string) =>
      body<{ data: Record<string, unknown>[] }>(await t.request({ method: 'GET', url, headers }));
    expect((await get('/api/v1/pricing/culture-lines')).data).toHaveLength(5);
    const changes = (await get('/api/v1/pricing/events')).data;
    expect(changes).toHaveLength(5);
    expect(
      changes.some(
        (c) => (c.previous_list_price as { currency?: string } | null)?.currency === 'EUR',
      ),
    ).toBe(true);

    const monthAgo = new Date(Date.now() - 31 * 86_400_000).toISOString();
    const lines = (await get('/api/v1/commerce/order-lines?limit=200')).data;
    expect(lines).toHaveLength(100);
    for (const line of lines) expect(String(line.occurred_at) > monthAgo).toBe(true);
    const days = new Set(lines.map((l) => String(l.occurred_at).slice(0, 10)));
    expect(days.size).toBeGreaterThanOrEqual(28);

    const groups = (await get('/api/v1/commerce/sell-through')).data;
    // Five lines sell in dollars, one in euros; the free replacement plantlet has no price.
    expect(groups.map((g) => g.currency).sort()).toEqual([
      'EUR',
      'USD',
      'USD',
      'USD',
      'USD',
      'USD',
      null,
    ]);
    const units = groups.map((g) => Number(g.units));
    expect(units).toEqual([...units].sort((a, b) => b - a));
    const unpriced = groups.find((g) => Number(g.priced_line_count) < Number(g.order_line_count));
    expect(unpriced).toBeDefined();
  });

  it('has photos of a plant, an explant and a contamination, served by their links', async () => {
    const rows = await t.database.db
      .selectFrom('assets')
      .select(['id', 'target', 'target_id', 'byte_size'])
      .where('workspace_id', '=', lab.workspace_id)
      .execute();
    expect(rows.map((r) => r.target).sort()).toEqual(['contamination', 'explant', 'plant']);
    for (const row of rows) {
      const list = body(
        await t.request({
          method: 'GET',
          url: `/api/v1/assets?target=${row.target}&target_id=${row.target_id}`,
          headers,
        }),
      );
      expect(list.data).toHaveLength(1);
      const asset = list.data[0];
      expect(asset).toMatchObject({ id: row.id, content_type: 'image/png' });
      expect(asset.caption).toEqual(expect.any(String));
      const link = new URL(asset.view_url as string);
      const file = await t.request({ method: 'GET', url: link.pathname + link.search });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/png');
      expect(file.rawPayload.subarray(1, 4).toString('ascii')).toBe('PNG');
      expect(file.rawPayload.length).toBe(row.byte_size);
    }
  });

  it('removes the photos of a demo lab whose transaction failed', async () => {
    const photos = demoPhotos(store);
    await expect(
      inTransaction(t.database.db, async (trx) => {
        await createDemoLab(trx, createRecordLookup(), new Date(), photos);
        throw new Error('the key file could not be written');
      }),
    ).rejects.toThrow('key file');
    const keys = [...photos.keys];
    expect(keys).toHaveLength(3);
    expect(await store.get(keys[0]!)).not.toBeNull();
    await discardDemoPhotos(photos);
    for (const key of keys) expect(await store.get(key)).toBeNull();
  });

  it('creates a separate lab each time', async () => {
    const second = await inTransaction(t.database.db, (trx) =>
      createDemoLab(trx, createRecordLookup()),
    );
    expect(second.workspace_id).not.toBe(lab.workspace_id);
    expect(second.key).not.toBe(lab.key);
  });
});
