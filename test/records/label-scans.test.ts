import { expect, it } from 'vitest';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  client,
  dataOf,
  expectError,
  expectSameAnswer,
  ISO_MS,
  keysOf,
  markDeleted,
  newExplant,
  newPlant,
  randomId,
  type Client,
} from '../support/helpers.js';

const SCAN_KEYS = ['barcode', 'context', 'explantId', 'id', 'plantId', 'resolved', 'scannedAt'];

describeOnDatabases('Label scans', (target) => {
  const { t, lab, owner } = labSuite(target);

  const scan = (c: Client, payload: Record<string, unknown>, headers?: Record<string, string>) =>
    c.post('/api/v1/label-scans', payload, headers);
  const storedScans = () =>
    t.database.db
      .selectFrom('label_scans')
      .selectAll()
      .where('workspace_id', '=', lab.workspaceId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();

  it('records an unresolved scan in camelCase, scanned at the time of receipt', async () => {
    const before = new Date().toISOString();
    const res = await scan(owner, { barcode: 'VT-P-0001' });
    const after = new Date().toISOString();
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replay']).toBe('false');
    const recorded = body(res).data;
    expect(keysOf(recorded)).toEqual(SCAN_KEYS);
    expect(recorded).toMatchObject({
      barcode: 'VT-P-0001',
      resolved: false,
      plantId: null,
      explantId: null,
      context: null,
    });
    expect(recorded.scannedAt).toMatch(ISO_MS);
    expect(recorded.scannedAt >= before && recorded.scannedAt <= after).toBe(true);
    const [row] = await storedScans();
    expect(row).toMatchObject({
      id: recorded.id,
      barcode: 'VT-P-0001',
      plant_id: null,
      explant_id: null,
      scanned_at: recorded.scannedAt,
      created_by: lab.owner.memberId,
    });
  });

  it('is resolved when it names a plant, an explant or both, and reads back every field', async () => {
    const plant = await newPlant(owner);
    const explant = await newExplant(owner, { plant_id: plant.id });
    const cases = [
      { plant_id: plant.id },
      { explant_id: explant.id },
      { plant_id: plant.id, explant_id: explant.id },
    ];
    for (const ids of cases) {
      const recorded = dataOf(
        await scan(owner, {
          barcode: 'MON-B01',
          context: 'transfer bench',
          scanned_at: '2026-11-20T09:15:00+02:00',
          ...ids,
        }),
        201,
      );
      expect(recorded).toEqual({
        id: expect.any(String),
        barcode: 'MON-B01',
        resolved: true,
        plantId: ids.plant_id ?? null,
        explantId: ids.explant_id ?? null,
        context: 'transfer bench',
        scannedAt: '2026-11-20T07:15:00.000Z',
      });
    }
    expect((await storedScans()).map((row) => [row.plant_id, row.explant_id])).toEqual(
      cases.map((ids) => [ids.plant_id ?? null, ids.explant_id ?? null]),
    );
  });

  it('needs a time zone on scanned_at', async () => {
    for (const scannedAt of [
      '2026-11-20T09:15:00',
      '2026-11-20',
      'yesterday',
      '2026-02-30T10:00:00Z',
    ]) {
      expectError(
        await scan(owner, { barcode: 'A', scanned_at: scannedAt }),
        422,
        'VALIDATION_ERROR',
        /^scanned_at:/,
      );
    }
    expect(
      dataOf(await scan(owner, { barcode: 'A', scanned_at: '2026-11-20T09:15:00.5Z' }), 201)
        .scannedAt,
    ).toBe('2026-11-20T09:15:00.500Z');
    expect(await storedScans()).toHaveLength(1);
  });

  it('answers 404 for a plant or explant that is not a record of the workspace, and records nothing', async () => {
    const plant = await newPlant(owner);
    const explant = await newExplant(owner);
    const gone = await newPlant(owner);
    await markDeleted(t.database, 'plants', gone.id);
    const other = await createLab(t.database);
    const theirPlant = await newPlant(client(t, other.owner));
    const theirExplant = await newExplant(client(t, other.owner));

    for (const [field, id] of [
      ['plant_id', theirPlant.id],
      ['plant_id', gone.id],
      ['plant_id', explant.id],
      ['explant_id', theirExplant.id],
      ['explant_id', plant.id],
    ] as const) {
      expectSameAnswer(
        await scan(owner, { barcode: 'X', [field]: id }),
        await scan(owner, { barcode: 'X', [field]: randomId() }),
        404,
        'NOT_FOUND',
      );
    }
    expectError(
      await scan(owner, { barcode: 'X', plant_id: plant.id, explant_id: theirExplant.id }),
      404,
      'NOT_FOUND',
    );
    expect(await storedScans()).toEqual([]);
  });

  it('refuses invalid bodies with 422', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /^barcode: is required/],
      [{ barcode: '' }, /^barcode:/],
      [{ barcode: 'x'.repeat(513) }, /^barcode:/],
      [{ barcode: 'A', context: 'c'.repeat(121) }, /^context:/],
      [{ barcode: 'A', plant_id: 'not-a-uuid' }, /^plant_id:/],
      [{ barcode: 'A', explant_id: 42 }, /^explant_id:/],
      [{ barcode: 'A', resolved: true }, /unknown field "resolved"/],
      [{ barcode: 'A', plantId: randomId() }, /unknown field "plantId"/],
      [{ barcode: 'A\u0000B' }, /NUL/],
    ];
    for (const [payload, error] of cases) {
      expectError(await scan(owner, payload), 422, 'VALIDATION_ERROR', error);
    }
    const longest = dataOf(
      await scan(owner, { barcode: 'x'.repeat(512), context: 'c'.repeat(120) }),
      201,
    );
    expect(longest.barcode).toHaveLength(512);
    expect(longest.context).toHaveLength(120);
    expect(await storedScans()).toHaveLength(1);
  });

  it('is append-only: every scan is a new record, and no route changes one', async () => {
    const first = dataOf(await scan(owner, { barcode: 'A' }), 201);
    const second = dataOf(await scan(owner, { barcode: 'A' }), 201);
    expect(second.id).not.toBe(first.id);
    expect(await storedScans()).toHaveLength(2);
    for (const method of ['PATCH', 'PUT', 'DELETE'] as const) {
      const res = await t.request({
        method,
        url: '/api/v1/label-scans',
        headers: lab.owner.headers,
        payload: { barcode: 'B' },
      });
      expectError(res, 405, 'METHOD_NOT_ALLOWED');
    }
    expectError(await owner.get(`/api/v1/label-scans/${first.id}`), 404, 'NOT_FOUND');
    expect((await storedScans()).map((row) => row.barcode)).toEqual(['A', 'A']);
  });

  it('replays a scan sent again with the same Idempotency-Key', async () => {
    const plant = await newPlant(owner);
    const key = { 'idempotency-key': 'scan-0001-retry' };
    const payload = { barcode: 'VT-P-0001', plant_id: plant.id };
    const first = await scan(owner, payload, key);
    const again = await scan(owner, payload, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(body(again)).toEqual(body(first));
    expectError(await scan(owner, { barcode: 'OTHER' }, key), 422, 'VALIDATION_ERROR');
    expect(await storedScans()).toHaveLength(1);
  });

  it('refuses a viewer, a key without write:label_scans and a device token, recording nothing', async () => {
    for (const role of ['viewer', 'guest'] as const) {
      expectError(
        await scan(client(t, await lab.actor(role)), { barcode: 'A' }),
        403,
        'FORBIDDEN',
        /member role/,
      );
    }
    const narrow = client(t, await lab.actor('owner', { scopes: ['read:labels'] }));
    expectError(await scan(narrow, { barcode: 'A' }), 403, 'FORBIDDEN', /write:label_scans/);
    const device = client(t, await lab.deviceToken());
    expectError(await scan(device, { barcode: 'A' }), 403, 'DEVICE_TOKEN_NOT_ACCEPTED');
    expect(await storedScans()).toEqual([]);
    const memberScan = dataOf(
      await scan(client(t, await lab.actor('member')), { barcode: 'A' }),
      201,
    );
    expect(memberScan.resolved).toBe(false);
  });
});
