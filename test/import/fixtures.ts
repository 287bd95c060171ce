import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { newId } from '../../src/kernel/ids.js';
import { body, type Lab, type TestApp } from '../support/harness.js';

/** Tables the import writes, each with a workspace_id column. */
export const IMPORT_TABLES = [
  'rooms',
  'stage_definitions',
  'custom_field_definitions',
  'sops',
  'sop_versions',
  'equipment',
  'labels',
  'label_contents',
  'culture_line_prices',
  'price_events',
  'order_lines',
] as const;

/** Every row the import could touch in one workspace (and the workspace row), in a stable order. */
export async function snapshot(db: Db, workspaceId: string) {
  const tables: Record<string, unknown[]> = {};
  for (const table of IMPORT_TABLES) {
    const { rows } = await sql<
      Record<string, unknown>
    >`select * from ${sql.table(table)} where workspace_id = ${workspaceId}`.execute(db);
    tables[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  const workspace = await db
    .selectFrom('workspaces')
    .select(['name', 'type', 'features', 'device_allowance', 'updated_at'])
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  return { workspace, tables };
}

export async function countRows(db: Db, workspaceId: string) {
  const counts: Record<string, number> = {};
  for (const table of IMPORT_TABLES) {
    const { rows } = await sql<{
      n: number | string;
    }>`select count(*) as n from ${sql.table(table)} where workspace_id = ${workspaceId}`.execute(
      db,
    );
    counts[table] = Number(rows[0]!.n);
  }
  return counts;
}

/** A plant and an explant made through the API, for the file to refer to. */
export async function plantAndExplant(t: TestApp, lab: Lab) {
  const plant = await t.request({
    method: 'POST',
    url: '/api/v1/plants',
    headers: lab.owner.headers,
    payload: { species: 'Monstera deliciosa', common_name: 'Thai Constellation' },
  });
  const plantId = body(plant).data.id as string;
  const explant = await t.request({
    method: 'POST',
    url: '/api/v1/explants',
    headers: lab.owner.headers,
    payload: { label: 'MON-B01', plant_id: plantId, initial_count: 4 },
  });
  return { plantId, explantId: body(explant).data.id as string };
}

/** A file using every section; fresh ids on every call. */
export function fullFile(refs: { plantId: string; explantId: string }) {
  const ids = {
    room: newId(),
    sop: newId(),
    v1: newId(),
    v2: newId(),
    equipment: newId(),
    tray: newId(),
    price: newId(),
    priceEvent: newId(),
    orderLine: newId(),
  };
  const file = {
    workspace: { name: 'Imported lab', type: 'team', features: ['pricing'], device_allowance: 5 },
    stages: {
      plant: [
        { key: 'mother_block', name: 'Mother Block' },
        { key: 'production', name: 'Production' },
      ],
      explant: [{ key: 'initiation', name: 'Initiation' }],
    },
    custom_fields: [
      { entity: 'explant', key: 'clone', type: 'text' },
      { entity: 'plant', key: 'grade', type: 'select', options: ['A', 'B'] },
    ],
    rooms: [{ id: ids.room, name: 'Growth room A' }],
    sops: [
      {
        id: ids.sop,
        title: 'Subculture',
        description: null,
        category: 'tissue-culture',
        status: 'active',
        level: 'beginner',
        tags: ['aseptic'],
        equipment: ['laminar flow hood'],
        estimated_time_minutes: 30,
        duration_hours: null,
        versions: [
          {
            id: ids.v1,
            version: 1,
            lifecycle_status: 'superseded',
            effective_at: '2026-01-01T08:00:00Z',
            approved_at: '2025-12-30T08:00:00+01:00',
            title: null,
            description: null,
            steps: [{ id: 'step-1', instruction: 'Old instruction' }],
          },
          {
            id: ids.v2,
            version: 2,
            lifecycle_status: 'effective',
            effective_at: '2026-06-01T08:00:00.000Z',
            approved_at: null,
            steps: [
              {
                id: 'step-1',
                instruction: 'Spray the hood with 70% ethanol',
                notes: null,
                safety_warning: 'Flammable',
                estimated_minutes: 5,
              },
              { id: 'step-2', instruction: 'Divide the shoot clusters' },
            ],
          },
        ],
      },
    ],
    equipment: [
      {
        id: ids.equipment,
        name: 'Autoclave 1',
        category: 'autoclave_pressure_cooker',
        status: 'active',
        manufacturer: 'Tuttnauer',
        model: null,
        serial_number: null,
        location: null,
        purchase_date: '2024-02-29',
        vendor_url: 'https://example.com/autoclave',
        notes: null,
      },
    ],
    labels: [
      {
        barcode: 'TC-0001',
        record_type: 'plant',
        record_id: refs.plantId,
        display_name: 'Mother 1',
      },
      {
        barcode: 'TRAY-1',
        record_type: 'container',
        record_id: ids.tray,
        display_name: 'Tray 1',
        contents: [
          { record_type: 'explant', record_id: refs.explantId },
          { record_type: 'plant', record_id: refs.plantId },
        ],
      },
    ],
    culture_line_prices: [
      {
        id: ids.price,
        plant_id: refs.plantId,
        list_price: { amount: '18.50', currency: 'USD' },
        wholesale_price: null,
        pricing_tier: 'A',
        tier_score: '0.82',
        price_source: 'manual',
        notes: null,
      },
    ],
    price_events: [
      {
        id: ids.priceEvent,
        plant_id: refs.plantId,
        list_price: { amount: '18.50', currency: 'USD' },
        previous_list_price: { amount: '16.00', currency: 'USD' },
        price_source: 'manual',
        changed_at: '2026-03-01T10:00:00Z',
      },
    ],
    order_lines: [
      {
        id: ids.orderLine,
        plant_id: refs.plantId,
        product_link_id: null,
        store_product_id: 'sp_1',
        store_variant_id: 'sv_1',
        quantity: 3,
        unit_price: { amount: '18.50', currency: 'USD' },
        occurred_at: '2026-03-02T10:00:00-05:00',
      },
    ],
  };
  return { ids, file };
}
