import { beforeEach, expect, it } from 'vitest';
import { AppError } from '../../src/kernel/errors.js';
import { newId } from '../../src/kernel/ids.js';
import { inTransaction } from '../../src/db/transaction.js';
import { orderLines } from '../../src/modules/commerce/commerce.repository.js';
import { equipment } from '../../src/modules/equipment/equipment.repository.js';
import { getWorkspace } from '../../src/modules/identity/index.js';
import { importLabData as importInto } from '../../src/modules/import/import.service.js';
import { createRecordLookup } from '../../src/modules/index.js';
import {
  rooms,
  listCustomFieldDefinitions,
  listStageDefinitions,
} from '../../src/modules/lab/lab.repository.js';
import {
  findLabelByBarcode,
  listLabelContents,
} from '../../src/modules/labels/labels.repository.js';
import { cultureLinePrices, priceEvents } from '../../src/modules/pricing/pricing.repository.js';
import { listSopVersions, sops } from '../../src/modules/sops/sops.repository.js';
import { createLab } from '../support/harness.js';
import { countRows, fullFile, plantAndExplant, snapshot } from './fixtures.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

describeOnDatabases('import', (target) => {
  const { t, lab } = labSuite(target);
  let refs: { plantId: string; explantId: string };
  beforeEach(async () => {
    refs = await plantAndExplant(t, lab);
  });
  const db = () => t.database.db;
  /** `vitro import`: the file applied in one transaction. */
  const importLabData = (database: ReturnType<typeof db>, workspaceId: string, data: unknown) =>
    inTransaction(database, (trx) => importInto(trx, workspaceId, data, createRecordLookup()));

  it('imports every section, counts it and stores readable rows', async () => {
    const { ids, file } = fullFile(refs);
    const counts = await importLabData(db(), lab.workspaceId, file);
    expect(counts).toEqual({
      workspace: 1,
      stages: 3,
      custom_fields: 2,
      rooms: 1,
      sops: 1,
      sop_versions: 2,
      equipment: 1,
      labels: 2,
      culture_line_prices: 1,
      price_events: 1,
      order_lines: 1,
    });
    const ws = lab.workspaceId;

    const workspace = await getWorkspace(db(), ws);
    expect(workspace).toMatchObject({ name: 'Imported lab', type: 'team', device_allowance: 5 });
    expect(JSON.parse(workspace.features!)).toEqual(['pricing']);
    expect((await listStageDefinitions(db(), ws, 'plant')).map((s) => s.key)).toEqual([
      'mother_block',
      'production',
    ]);
    const selects = await listCustomFieldDefinitions(db(), ws, 'plant');
    expect(selects).toMatchObject([{ key: 'grade', type: 'select', options: '["A","B"]' }]);
    expect(await rooms.find(db(), ws, ids.room)).toMatchObject({ name: 'Growth room A' });

    expect(await sops.find(db(), ws, ids.sop)).toMatchObject({
      title: 'Subculture',
      tags: '["aseptic"]',
      estimated_time_minutes: 30,
      duration_hours: null,
    });
    const versions = await listSopVersions(db(), ws, ids.sop);
    expect(versions.map((v) => [v.version, v.lifecycle_status])).toEqual([
      [1, 'superseded'],
      [2, 'effective'],
    ]);
    expect(versions[0]!.approved_at).toBe('2025-12-30T07:00:00.000Z');
    expect(JSON.parse(versions[1]!.steps)).toEqual([
      {
        id: 'step-1',
        instruction: 'Spray the hood with 70% ethanol',
        notes: null,
        safetyWarning: 'Flammable',
        estimatedMinutes: 5,
        measurements: [],
      },
      {
        id: 'step-2',
        instruction: 'Divide the shoot clusters',
        notes: null,
        safetyWarning: null,
        estimatedMinutes: null,
        measurements: [],
      },
    ]);

    expect(await equipment.find(db(), ws, ids.equipment)).toMatchObject({
      name: 'Autoclave 1',
      purchase_date: '2024-02-29',
      last_calibrated_at: null,
    });
    const tray = await findLabelByBarcode(db(), ws, 'TRAY-1');
    expect(tray).toMatchObject({ record_type: 'container', record_id: ids.tray });
    expect(
      (await listLabelContents(db(), ws, tray!.id)).map((c) => [c.record_type, c.record_id]),
    ).toEqual([
      ['explant', refs.explantId],
      ['plant', refs.plantId],
    ]);
    expect(await cultureLinePrices.find(db(), ws, ids.price)).toMatchObject({
      list_amount: '18.50',
      list_currency: 'USD',
      wholesale_amount: null,
      tier_score: '0.82',
      previous_amount: null,
    });
    expect(await priceEvents.find(db(), ws, ids.priceEvent)).toMatchObject({
      previous_amount: '16.00',
      changed_at: '2026-03-01T10:00:00.000Z',
    });
    expect(await orderLines.find(db(), ws, ids.orderLine)).toMatchObject({
      quantity: 3,
      unit_amount: '18.50',
      occurred_at: '2026-03-02T15:00:00.000Z',
    });
  });

  it('is idempotent: the same file again changes no row', async () => {
    const { file } = fullFile(refs);
    await importLabData(db(), lab.workspaceId, file);
    const before = await snapshot(db(), lab.workspaceId);
    const again = await importLabData(db(), lab.workspaceId, structuredClone(file));
    expect(again.sops).toBe(1);
    expect(await snapshot(db(), lab.workspaceId)).toEqual(before);
  });

  it('matches records sent without ids on their natural keys: the same file again adds nothing', async () => {
    const { file } = fullFile(refs);
    // Every record's id removed; a step's id is its key within the version and stays.
    const withoutIds = JSON.parse(
      JSON.stringify(file, function (this: object, key, value: unknown) {
        return key === 'id' && !('instruction' in this) ? undefined : value;
      }),
    ) as typeof file;
    // Two identical sales lines stay two lines.
    withoutIds.order_lines.push(structuredClone(withoutIds.order_lines[0]!));
    await importLabData(db(), lab.workspaceId, withoutIds);
    const first = await snapshot(db(), lab.workspaceId);
    await importLabData(db(), lab.workspaceId, structuredClone(withoutIds));
    expect(await snapshot(db(), lab.workspaceId)).toEqual(first);
    expect(await countRows(db(), lab.workspaceId)).toMatchObject({
      rooms: 1,
      sops: 1,
      sop_versions: 2,
      equipment: 1,
      culture_line_prices: 1,
      price_events: 1,
      order_lines: 2,
    });

    // A field that is not the key changes the matched record in place.
    (withoutIds.equipment[0] as { notes: string | null }).notes = 'Serviced in May';
    withoutIds.sops[0]!.versions[1]!.steps[1]!.instruction = 'Divide into clumps of three';
    await importLabData(db(), lab.workspaceId, withoutIds);
    const counts = await countRows(db(), lab.workspaceId);
    expect(counts).toMatchObject({ equipment: 1, sop_versions: 2 });
    const rows = await db()
      .selectFrom('equipment')
      .select('notes')
      .where('workspace_id', '=', lab.workspaceId)
      .execute();
    expect(rows).toEqual([{ notes: 'Serviced in May' }]);
  });

  it('updates records by id and keeps the old list price as the previous one', async () => {
    const { ids, file } = fullFile(refs);
    await importLabData(db(), lab.workspaceId, file);
    file.equipment[0]!.name = 'Autoclave A';
    file.culture_line_prices[0]!.list_price = { amount: '21.00', currency: 'USD' };
    file.sops[0]!.versions = [
      { ...file.sops[0]!.versions[0]!, id: newId(), version: 3, lifecycle_status: 'effective' },
    ];
    await importLabData(db(), lab.workspaceId, file);

    expect((await equipment.find(db(), lab.workspaceId, ids.equipment))!.name).toBe('Autoclave A');
    expect(await cultureLinePrices.find(db(), lab.workspaceId, ids.price)).toMatchObject({
      list_amount: '21.00',
      previous_amount: '18.50',
      previous_currency: 'USD',
    });
    const versions = await listSopVersions(db(), lab.workspaceId, ids.sop);
    expect(versions.map((v) => [v.version, v.lifecycle_status])).toEqual([
      [1, 'superseded'],
      [2, 'superseded'],
      [3, 'effective'],
    ]);
    const counts = await countRows(db(), lab.workspaceId);
    expect(counts).toMatchObject({
      equipment: 1,
      culture_line_prices: 1,
      labels: 2,
      label_contents: 2,
    });
  });

  it('generates ids when a record has none', async () => {
    await importLabData(db(), lab.workspaceId, {
      rooms: [{ name: 'Room without id' }],
      equipment: [{ name: 'Balance', category: 'balance_scale' }],
    });
    expect(await countRows(db(), lab.workspaceId)).toMatchObject({ rooms: 1, equipment: 1 });
  });

  type Edit = (file: ReturnType<typeof fullFile>['file'] & Record<string, unknown>) => void;
  const invalid: [string, Edit, string][] = [
    ['an unknown top-level key', (f) => (f.plants = []), 'import file: unknown key "plants"'],
    [
      'an unknown nested key',
      (f) => Object.assign(f.sops[0]!.versions[1]!.steps[1]!, { color: 'red' }),
      'sops[0].versions[1].steps[1]: unknown key "color"',
    ],
    [
      'a lifecycle status outside the enum',
      (f) => (f.sops[0]!.versions[1]!.lifecycle_status = 'current'),
      'sops[0].versions[1].lifecycle_status: must be one of: effective, draft, superseded',
    ],
    [
      'two effective versions of one SOP',
      (f) => (f.sops[0]!.versions[0]!.lifecycle_status = 'effective'),
      'sops[0].versions[1].lifecycle_status: only one version of an SOP may be effective',
    ],
    ['a malformed id', (f) => (f.rooms[0]!.id = 'room-1'), 'rooms[0].id: must be a UUID'],
    [
      'a duplicate id',
      (f) => f.rooms.push({ ...f.rooms[0]! }),
      'rooms[1].id: duplicates rooms[0].id',
    ],
    [
      'a float money amount',
      (f) => Object.assign(f.culture_line_prices[0]!.list_price, { amount: 18.5 }),
      'culture_line_prices[0].list_price.amount: must be string',
    ],
    [
      'an inexact money string',
      (f) => (f.order_lines[0]!.unit_price.amount = '1e3'),
      'order_lines[0].unit_price.amount: must be an exact decimal string',
    ],
    [
      'a lower-case currency',
      (f) => (f.price_events[0]!.list_price.currency = 'usd'),
      'price_events[0].list_price.currency: must be a 3-letter currency code',
    ],
    [
      'a timestamp without a zone',
      (f) => (f.price_events[0]!.changed_at = '2026-03-01T10:00:00'),
      'price_events[0].changed_at: must be an ISO 8601 timestamp with a time zone',
    ],
    [
      'an impossible purchase date',
      (f) => (f.equipment[0]!.purchase_date = '2025-02-29'),
      'equipment[0].purchase_date: must be a date (YYYY-MM-DD)',
    ],
    [
      'an equipment category outside the enum',
      (f) => (f.equipment[0]!.category = 'centrifuge'),
      'equipment[0].category: must be one of: balance_scale,',
    ],
    [
      'a stage key that is not snake_case',
      (f) => (f.stages.plant[1]!.key = 'Production'),
      'stages.plant[1].key: must be snake_case',
    ],
    [
      'a select field without options',
      (f) => delete (f.custom_fields[1] as { options?: unknown }).options,
      'custom_fields[1].options: required for a select field',
    ],
    [
      'a custom field type outside the enum',
      (f) => (f.custom_fields[0]!.type = 'json'),
      'custom_fields[0].type: must be one of: text, number, boolean, date, select',
    ],
    [
      'contents on a plant label',
      (f) => Object.assign(f.labels[0]!, { contents: f.labels[1]!.contents }),
      'labels[0].contents: only a container label has contents',
    ],
    [
      'a label for a plant that does not exist',
      (f) => (f.labels[0]!.record_id = newId()),
      'labels[0].record_id: no plant with this id in the workspace',
    ],
    [
      'container contents that do not exist',
      (f) => (f.labels[1]!.contents![0]!.record_id = newId()),
      'labels[1].contents[0].record_id: no explant with this id in the workspace',
    ],
    [
      'a price for a plant that does not exist',
      (f) => (f.culture_line_prices[0]!.plant_id = newId()),
      'culture_line_prices[0].plant_id: no plant with this id in the workspace',
    ],
    [
      'an order line for a plant that does not exist',
      (f) => (f.order_lines[0]!.plant_id = newId()),
      'order_lines[0].plant_id: no plant with this id in the workspace',
    ],
  ];

  it.each(invalid)('refuses %s and changes nothing', async (_name, edit, message) => {
    const first = fullFile(refs);
    await importLabData(db(), lab.workspaceId, first.file);
    const before = await snapshot(db(), lab.workspaceId);

    const { file } = fullFile(refs);
    file.workspace.name = 'Should not be written';
    edit(file);
    const error = await importLabData(db(), lab.workspaceId, file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((error as AppError).message).toContain(message);
    expect(await snapshot(db(), lab.workspaceId)).toEqual(before);
  });

  it('refuses a file that is not an object', async () => {
    await expect(importLabData(db(), lab.workspaceId, [])).rejects.toThrow(
      'import file: must be a JSON object',
    );
  });

  it('answers an unknown workspace with NOT_FOUND', async () => {
    await expect(importLabData(db(), newId(), { rooms: [] })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it("refuses ids another workspace holds and never touches that workspace's rows", async () => {
    const other = await createLab(t.database, { name: 'Other lab' });
    const otherRefs = await plantAndExplant(t, other);
    const { ids, file } = fullFile(otherRefs);
    await importLabData(db(), other.workspaceId, file);
    const otherBefore = await snapshot(db(), other.workspaceId);
    const ownBefore = await snapshot(db(), lab.workspaceId);

    const attempts: [object, string][] = [
      [
        { rooms: [{ id: ids.room, name: 'Hijacked' }] },
        'rooms[0].id: already used by another workspace',
      ],
      [
        { equipment: [{ id: ids.equipment, name: 'Hijacked', category: 'other' }] },
        'equipment[0].id: already used by another workspace',
      ],
      [
        { sops: [{ id: ids.sop, title: 'Hijacked' }] },
        'sops[0].id: already used by another workspace',
      ],
      [
        {
          sops: [
            { title: 'Mine', versions: [{ id: ids.v2, version: 1, lifecycle_status: 'draft' }] },
          ],
        },
        'sops[0].versions[0].id: already used by another workspace',
      ],
      [
        { order_lines: [{ id: ids.orderLine, quantity: 1 }] },
        'order_lines[0].id: already used by another workspace',
      ],
      [
        {
          labels: [
            {
              barcode: 'X-1',
              record_type: 'plant',
              record_id: otherRefs.plantId,
              display_name: 'x',
            },
          ],
        },
        'labels[0].record_id: no plant with this id in the workspace',
      ],
    ];
    for (const [attempt, message] of attempts) {
      await expect(importLabData(db(), lab.workspaceId, attempt)).rejects.toThrow(message);
    }
    expect(await snapshot(db(), other.workspaceId)).toEqual(otherBefore);
    expect(await snapshot(db(), lab.workspaceId)).toEqual(ownBefore);
  });

  it('refuses numbers no column can hold, before writing anything', async () => {
    for (const [file, problem] of [
      [
        { workspace: { device_allowance: 2 ** 31 } },
        /^workspace\.device_allowance: must be at most 2147483647/,
      ],
      [
        { sops: [{ title: 'S', estimated_time_minutes: Infinity }] },
        /^sops\[0\]\.estimated_time_minutes: /,
      ],
      [
        { sops: [{ title: 'S', versions: [{ version: 2 ** 40, lifecycle_status: 'draft' }] }] },
        /^sops\[0\]\.versions\[0\]\.version: /,
      ],
    ] as const) {
      await expect(importLabData(db(), lab.workspaceId, file)).rejects.toThrow(problem);
    }
    expect((await countRows(db(), lab.workspaceId)).sops).toBe(0);
  });

  it('refuses a version number stored under another id', async () => {
    const { ids, file } = fullFile(refs);
    await importLabData(db(), lab.workspaceId, file);
    // A version sent without an id is the stored version of its number (matched);
    // one sent with another id cannot take that number.
    await expect(
      importLabData(db(), lab.workspaceId, {
        sops: [
          {
            id: ids.sop,
            title: 'Subculture',
            versions: [{ id: newId(), version: 2, lifecycle_status: 'draft' }],
          },
        ],
      }),
    ).rejects.toThrow(
      `sops[0].versions[0].version: version 2 of this SOP is already stored with id ${ids.v2}`,
    );
  });
});
