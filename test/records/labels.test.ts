import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { newId } from '../../src/kernel/ids.js';
import { importLabData } from '../../src/modules/import/import.service.js';
import { createRecordLookup } from '../../src/modules/index.js';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  client,
  dataOf,
  expectError,
  expectSameAnswer,
  keysOf,
  markDeleted,
  newExplant,
  newPlant,
  type Client,
} from '../support/helpers.js';
import { newBatch, newRecipe } from '../media/support.js';

const PUBLIC_URL = 'https://lab.example.org/vitro';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Tables whose rows belong to one workspace, resolving must not touch any of them. */
const WORKSPACE_TABLES = [
  'members',
  'api_keys',
  'plants',
  'explants',
  'stages',
  'events',
  'labels',
  'label_contents',
  'label_scans',
  'media_recipes',
] as const;

describeOnDatabases('Label resolve', (target) => {
  const { t, lab, owner } = labSuite(target, { env: { PUBLIC_URL: `${PUBLIC_URL}/` } });

  const importLabels = (workspaceId: string, labels: unknown[]) =>
    inTransaction(t.database.db, (trx) =>
      importLabData(trx, workspaceId, { labels }, createRecordLookup()),
    );
  const resolve = (c: Client, barcode: string) =>
    c.get(`/api/v1/labels/resolve?barcode=${encodeURIComponent(barcode)}`);
  const url = (path: string) => `${PUBLIC_URL}/api/v1/${path}`;

  /** Two plants and two explants, and labels for one of each plus a tray holding three. */
  async function labelledLab() {
    const monstera = await newPlant(owner, {
      species: 'Monstera deliciosa',
      common_name: 'Thai Constellation',
      external_id: 'MON-TC-01',
    });
    const alocasia = await newPlant(owner, { species: 'Alocasia micholitziana' });
    const b01 = await newExplant(owner, { label: 'MON-B01', plant_id: monstera.id });
    const b02 = await newExplant(owner, { label: 'ALO-B02', batch_number: 'B2026-002' });
    const tray = newId();
    await importLabels(lab.workspaceId, [
      {
        barcode: 'VT-P-0001',
        record_type: 'plant',
        record_id: monstera.id,
        display_name: 'Mother plant',
      },
      { barcode: 'VT-E-0001', record_type: 'explant', record_id: b01.id, display_name: 'Jar B01' },
      {
        barcode: 'VT-C-0001',
        record_type: 'container',
        record_id: tray,
        display_name: 'Tray 3, shelf 2',
        contents: [
          { record_type: 'explant', record_id: b02.id },
          { record_type: 'plant', record_id: alocasia.id },
          { record_type: 'explant', record_id: b01.id },
        ],
      },
    ]);
    return { monstera, alocasia, b01, b02, tray };
  }

  describe('imported labels', () => {
    it('resolves a plant label and an explant label to their API addresses', async () => {
      const { monstera, b01 } = await labelledLab();
      const plant = dataOf(await resolve(owner, 'VT-P-0001'), 200);
      expect(plant).toEqual({
        barcode: 'VT-P-0001',
        record_type: 'plant',
        record_id: monstera.id,
        display_name: 'Mother plant',
        url: url(`plants/${monstera.id}`),
      });
      const explant = dataOf(await resolve(owner, 'VT-E-0001'), 200);
      expect(explant).toEqual({
        barcode: 'VT-E-0001',
        record_type: 'explant',
        record_id: b01.id,
        display_name: 'Jar B01',
        url: url(`explants/${b01.id}`),
      });
      // The address is the record's: following it (minus PUBLIC_URL) reads the record.
      const path = explant.url.slice(PUBLIC_URL.length);
      expect(dataOf(await owner.get(path), 200)).toEqual(b01);
    });

    it('lists the contents of a container with item ids, names and addresses, in label order', async () => {
      const { alocasia, b01, b02, tray } = await labelledLab();
      const container = dataOf(await resolve(owner, 'VT-C-0001'), 200);
      expect(keysOf(container)).toEqual([
        'barcode',
        'contents',
        'display_name',
        'record_id',
        'record_type',
        'url',
      ]);
      expect(container).toMatchObject({
        barcode: 'VT-C-0001',
        record_type: 'container',
        record_id: tray,
        display_name: 'Tray 3, shelf 2',
        url: url('labels/resolve?barcode=VT-C-0001'),
      });
      expect(container.contents).toEqual([
        {
          item_id: expect.stringMatching(UUID),
          record_type: 'explant',
          record_id: b02.id,
          display_name: 'ALO-B02',
          url: url(`explants/${b02.id}`),
        },
        {
          item_id: expect.stringMatching(UUID),
          record_type: 'plant',
          record_id: alocasia.id,
          display_name: 'Alocasia micholitziana',
          url: url(`plants/${alocasia.id}`),
        },
        {
          item_id: expect.stringMatching(UUID),
          record_type: 'explant',
          record_id: b01.id,
          display_name: 'MON-B01',
          url: url(`explants/${b01.id}`),
        },
      ]);
      expect(new Set(container.contents.map((c: { item_id: string }) => c.item_id)).size).toBe(3);
      expect(dataOf(await resolve(owner, 'VT-C-0001'), 200)).toEqual(container);
    });

    it('matches a barcode exactly, and before any own identifier', async () => {
      const { monstera, alocasia } = await labelledLab();
      // A label whose code is another plant's external id: the label wins.
      await importLabels(lab.workspaceId, [
        {
          barcode: 'MON-TC-01',
          record_type: 'plant',
          record_id: alocasia.id,
          display_name: 'Relabelled',
        },
      ]);
      expect(dataOf(await resolve(owner, 'MON-TC-01'), 200)).toMatchObject({
        record_id: alocasia.id,
        display_name: 'Relabelled',
      });
      // Another case is no label match; it falls to the external ids (ignoring case).
      expect(dataOf(await resolve(owner, 'mon-tc-01'), 200)).toMatchObject({
        barcode: 'mon-tc-01',
        record_id: monstera.id,
        display_name: 'Thai Constellation',
      });
      expectError(await resolve(owner, 'vt-p-0001'), 404, 'NOT_FOUND');
      expectError(await resolve(owner, 'VT-P-000'), 404, 'NOT_FOUND');
      expectError(await resolve(owner, ' VT-P-0001'), 404, 'NOT_FOUND');
    });

    it('passes over a label whose record was deleted; a deleted content stays listed without an address', async () => {
      const { monstera, b02 } = await labelledLab();
      await markDeleted(t.database, 'plants', monstera.id);
      await markDeleted(t.database, 'explants', b02.id);
      expectError(await resolve(owner, 'VT-P-0001'), 404, 'NOT_FOUND');
      expectError(await resolve(owner, 'MON-TC-01'), 404, 'NOT_FOUND');
      const container = dataOf(await resolve(owner, 'VT-C-0001'), 200);
      expect(container.contents[0]).toEqual({
        item_id: expect.stringMatching(UUID),
        record_type: 'explant',
        record_id: b02.id,
        display_name: 'Deleted explant',
        url: null,
      });
      expect(container.contents[1].url).toEqual(expect.stringContaining('/plants/'));
    });
  });

  describe("records' own identifiers", () => {
    it("resolves a plant's external id ignoring case, named as the plant is", async () => {
      const plant = await newPlant(owner, { species: 'Ficus lyrata', external_id: 'FL-Mother-7' });
      for (const code of ['FL-Mother-7', 'fl-mother-7', 'FL-MOTHER-7']) {
        expect(dataOf(await resolve(owner, code), 200)).toEqual({
          barcode: code,
          record_type: 'plant',
          record_id: plant.id,
          display_name: 'Ficus lyrata',
          url: url(`plants/${plant.id}`),
        });
      }
    });

    it('resolves an explant by external id, then batch number, then label, as GET /explants?externalId= does', async () => {
      const byLabel = await newExplant(owner, { label: 'Key-1' });
      const code = async (value: string) => dataOf(await resolve(owner, value), 200);
      expect(await code('KEY-1')).toEqual({
        barcode: 'KEY-1',
        record_type: 'explant',
        record_id: byLabel.id,
        display_name: 'Key-1',
        url: url(`explants/${byLabel.id}`),
      });
      const byBatch = await newExplant(owner, { label: 'Other', batch_number: 'key-1' });
      expect((await code('Key-1')).record_id).toBe(byBatch.id);
      const byExternal = await newExplant(owner, { label: 'Third', external_id: 'KEY-1' });
      expect(await code('key-1')).toMatchObject({
        record_id: byExternal.id,
        display_name: 'Third',
      });
      const listed = dataOf(await owner.get('/api/v1/explants?externalId=key-1'), 200);
      expect(listed.map((e: { id: string }) => e.id)).toEqual([byExternal.id]);
      // A plant's external id comes before any explant's.
      const plant = await newPlant(owner, { external_id: 'key-1' });
      expect(await code('KEY-1')).toMatchObject({ record_type: 'plant', record_id: plant.id });
    });

    it("resolves a media batch's id, what its printed label carries, to the batch, named by recipe and day", async () => {
      const recipe = await newRecipe(owner, { title: 'WPM + IBA' });
      const batch = await newBatch(owner, {
        recipe_id: recipe.id,
        prepared_at: '2026-03-04T09:30:00.000Z',
      });
      for (const code of [batch.id, batch.id.toUpperCase()]) {
        expect(dataOf(await resolve(owner, code), 200)).toEqual({
          barcode: code,
          record_type: 'media_batch',
          record_id: batch.id,
          display_name: 'WPM + IBA 2026-03-04',
          url: url(`media-batches/${batch.id}`),
        });
      }
      // Another lab's batch is an unknown code.
      const other = await createLab(t.database);
      const theirs = await newBatch(client(t, other.owner), {
        recipe_id: (await newRecipe(client(t, other.owner))).id,
      });
      expectError(await resolve(owner, theirs.id), 404, 'NOT_FOUND');
    });

    it('answers 404 when nothing matches', async () => {
      await labelledLab();
      for (const code of ['NOPE', 'VT-X-0001', 'B2026', '0']) {
        expectError(await resolve(owner, code), 404, 'NOT_FOUND');
      }
    });
  });

  it("answers another workspace's labels and records exactly as an unknown code", async () => {
    const other = await createLab(t.database);
    const otherOwner = client(t, other.owner);
    const plant = await newPlant(otherOwner, { external_id: 'THEIRS-1' });
    const explant = await newExplant(otherOwner, { label: 'THEIRS-JAR', batch_number: 'THEIRS-B' });
    await importLabels(other.workspaceId, [
      {
        barcode: 'THEIRS-LABEL',
        record_type: 'plant',
        record_id: plant.id,
        display_name: 'Theirs',
      },
    ]);
    for (const code of ['THEIRS-1', 'THEIRS-JAR', 'THEIRS-B', 'THEIRS-LABEL']) {
      expectSameAnswer(
        await resolve(owner, code),
        await resolve(owner, 'UNKNOWN'),
        404,
        'NOT_FOUND',
      );
      expect(dataOf(await resolve(otherOwner, code), 200).record_id).toBe(
        code === 'THEIRS-JAR' || code === 'THEIRS-B' ? explant.id : plant.id,
      );
    }
  });

  it('refuses a missing, empty, overlong or NUL-bearing barcode with 422', async () => {
    expectError(await owner.get('/api/v1/labels/resolve'), 422, 'VALIDATION_ERROR', /barcode/);
    expectError(await resolve(owner, ''), 422, 'VALIDATION_ERROR', /^barcode:/);
    expectError(await resolve(owner, 'x'.repeat(513)), 422, 'VALIDATION_ERROR', /^barcode:/);
    expectError(await resolve(owner, 'a\u0000b'), 422, 'VALIDATION_ERROR', /NUL/);
    // A parameter it does not take is ignored: the same answer as without it.
    expectSameAnswer(
      await owner.get('/api/v1/labels/resolve?barcode=A&limit=5'),
      await owner.get('/api/v1/labels/resolve?barcode=A'),
      404,
      'NOT_FOUND',
    );
    const longest = 'L'.repeat(512);
    const plant = await newPlant(owner);
    await importLabels(lab.workspaceId, [
      { barcode: longest, record_type: 'plant', record_id: plant.id, display_name: 'Long' },
    ]);
    expect(dataOf(await resolve(owner, longest), 200).record_id).toBe(plant.id);
  });

  it('lets any member read it, and refuses a key without read:labels and a device token', async () => {
    await labelledLab();
    for (const role of ['guest', 'viewer', 'member'] as const) {
      const reader = client(t, await lab.actor(role));
      expect(dataOf(await resolve(reader, 'VT-P-0001'), 200).record_type).toBe('plant');
    }
    const narrow = client(t, await lab.actor('owner', { scopes: ['read:plants'] }));
    expectError(await resolve(narrow, 'VT-P-0001'), 403, 'FORBIDDEN', /read:labels/);
    const device = client(t, await lab.deviceToken());
    expectError(await resolve(device, 'VT-P-0001'), 403, 'DEVICE_TOKEN_NOT_ACCEPTED');
  });

  it('writes nothing: every row of the workspace and every stored request stays as it was', async () => {
    await labelledLab();
    const snapshot = async () => {
      const rows: Record<string, string[]> = {};
      for (const table of WORKSPACE_TABLES) {
        const { rows: found } = await sql<Record<string, unknown>>`select * from ${sql.table(
          table,
        )} where workspace_id = ${lab.workspaceId}`.execute(t.database.db);
        rows[table] = found.map((row) => JSON.stringify(row)).sort();
      }
      const { rows: keys } = await sql<Record<string, unknown>>`select * from idempotency_keys
        where credential_id = ${lab.owner.keyId}`.execute(t.database.db);
      rows.idempotency_keys = keys.map((row) => JSON.stringify(row)).sort();
      const workspace = await t.database.db
        .selectFrom('workspaces')
        .selectAll()
        .where('id', '=', lab.workspaceId)
        .executeTakeFirstOrThrow();
      return { rows, workspace };
    };
    // A first request stamps the key's last_used_at (kept to the minute); after it, reads only.
    dataOf(await resolve(owner, 'VT-P-0001'), 200);
    const before = await snapshot();
    const generation = t.database.changeGeneration();
    const codes = [
      'VT-P-0001',
      'VT-E-0001',
      'VT-C-0001',
      'mon-tc-01',
      'alo-b02',
      'b2026-002',
      'NONE',
    ];
    for (const code of codes) {
      const res = await owner.get(`/api/v1/labels/resolve?barcode=${encodeURIComponent(code)}`);
      expect([200, 404]).toContain(res.statusCode);
      const keyed = await t.request({
        method: 'GET',
        url: `/api/v1/labels/resolve?barcode=${encodeURIComponent(code)}`,
        headers: { ...lab.owner.headers, 'idempotency-key': `resolve-${code}-0001` },
      });
      expect(keyed.statusCode).toBe(res.statusCode);
      expect(keyed.headers['idempotent-replay']).toBeUndefined();
    }
    expect(await snapshot()).toEqual(before);
    // SQLite counts every statement that can write: none ran.
    if (target.name === 'sqlite') {
      expect(generation).toEqual(expect.any(Number));
      expect(t.database.changeGeneration()).toBe(generation);
    }
    expect(body(await resolve(owner, 'alo-b02')).data.display_name).toBe('ALO-B02');
  });
});
