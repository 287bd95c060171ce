import { expect, it } from 'vitest';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  client,
  dataOf,
  expectError,
  expectSameAnswer,
  keysOf,
  listAll,
  randomId,
} from '../support/helpers.js';
import { addEquipment, importFile, minutesIn } from './library.js';

const EQUIPMENT_KEYS = [
  'category',
  'created_at',
  'id',
  'last_calibrated_at',
  'last_maintenance_at',
  'location',
  'manufacturer',
  'model',
  'name',
  'next_calibration_due_at',
  'next_maintenance_due_at',
  'notes',
  'purchase_date',
  'serial_number',
  'status',
  'updated_at',
  'vendor_url',
];

describeOnDatabases('Equipment library', (target) => {
  const { t, lab, owner } = labSuite(target);

  it('gets a piece of equipment with every field of the table, as imported', async () => {
    const sent = {
      name: 'Autoclave 1',
      category: 'autoclave_pressure_cooker',
      status: 'active',
      manufacturer: 'Tuttnauer',
      model: '2540EL',
      serial_number: 'TT-1',
      location: 'Media prep',
      purchase_date: '2024-02-29',
      vendor_url: 'https://example.com/autoclave',
      notes: 'Door gasket replaced 2026-01',
    };
    const id = await addEquipment(t, lab.workspaceId, sent, minutesIn(5));
    const item = dataOf(await owner.get(`/api/v1/equipment/${id}`), 200);
    expect(keysOf(item)).toEqual(EQUIPMENT_KEYS);
    expect(item).toEqual({
      id,
      ...sent,
      last_calibrated_at: null,
      next_calibration_due_at: null,
      last_maintenance_at: null,
      next_maintenance_due_at: null,
      created_at: minutesIn(5),
      updated_at: minutesIn(5),
    });
    expect(dataOf(await owner.get('/api/v1/equipment'), 200)).toEqual([item]);
  });

  it('lists newest first, with archived equipment unless a status is asked for', async () => {
    const hood = await addEquipment(
      t,
      lab.workspaceId,
      { category: 'laminar_flow_hood' },
      minutesIn(1),
    );
    const cooker = await addEquipment(
      t,
      lab.workspaceId,
      { category: 'autoclave_pressure_cooker', status: 'archived' },
      minutesIn(2),
    );
    const autoclave = await addEquipment(
      t,
      lab.workspaceId,
      { category: 'autoclave_pressure_cooker' },
      minutesIn(3),
    );
    const ids = async (url: string) =>
      (dataOf(await owner.get(url), 200) as { id: string }[]).map((e) => e.id);
    expect(await ids('/api/v1/equipment')).toEqual([autoclave, cooker, hood]);
    expect(await ids('/api/v1/equipment?status=active')).toEqual([autoclave, hood]);
    expect(await ids('/api/v1/equipment?status=archived')).toEqual([cooker]);
    expect(await ids('/api/v1/equipment?category=autoclave_pressure_cooker')).toEqual([
      autoclave,
      cooker,
    ]);
    expect(await ids('/api/v1/equipment?category=autoclave_pressure_cooker&status=active')).toEqual(
      [autoclave],
    );
    expect(await ids('/api/v1/equipment?category=microscope')).toEqual([]);
    expectError(
      await owner.get('/api/v1/equipment?category=toaster'),
      422,
      'VALIDATION_ERROR',
      /^category:/,
    );
    expectError(await owner.get('/api/v1/equipment?status=lost'), 422, 'VALIDATION_ERROR');
  });

  it('pages by cursor and by offset; ties on created_at keep the id order', async () => {
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      made.push(await addEquipment(t, lab.workspaceId, {}, minutesIn(i < 4 ? 1 : 2)));
    }
    const expected = [...made.slice(4).sort().reverse(), ...made.slice(0, 4).sort().reverse()];
    expect((await listAll(owner, '/api/v1/equipment', 2)).map((e) => e.id)).toEqual(expected);
    const page = body(await owner.get('/api/v1/equipment?limit=3&offset=2'));
    expect(page.data.map((e: { id: string }) => e.id)).toEqual(expected.slice(2, 5));
    expect(page.meta.next_cursor).toEqual(expect.any(String));
    const first = body(await owner.get('/api/v1/equipment?limit=2'));
    expectError(
      await owner.get(
        `/api/v1/equipment?limit=2&status=active&cursor=${encodeURIComponent(first.meta.next_cursor)}`,
      ),
      422,
      'INVALID_CURSOR',
    );
    expectError(
      await owner.get(`/api/v1/equipment?offset=1&cursor=${first.meta.next_cursor}`),
      422,
      'VALIDATION_ERROR',
    );
  });

  it("answers another workspace's equipment exactly as a random id", async () => {
    const other = await createLab(t.database, { name: 'Other lab' });
    const theirs = await addEquipment(t, other.workspaceId);
    const reference = await owner.get(`/api/v1/equipment/${randomId()}`);
    expectSameAnswer(await owner.get(`/api/v1/equipment/${theirs}`), reference, 404, 'NOT_FOUND');
    expectSameAnswer(await owner.get('/api/v1/equipment/not-a-uuid'), reference, 404, 'NOT_FOUND');
    expect(dataOf(await owner.get('/api/v1/equipment'), 200)).toEqual([]);
  });

  it('is readable by any member, refused to device tokens and without the scope', async () => {
    const id = await addEquipment(t, lab.workspaceId);
    const guest = client(t, await lab.actor('guest'));
    expect(dataOf(await guest.get(`/api/v1/equipment/${id}`), 200).id).toBe(id);
    const device = client(t, await lab.deviceToken());
    expectError(await device.get('/api/v1/equipment'), 403, 'DEVICE_TOKEN_NOT_ACCEPTED');
    const unscoped = client(t, await lab.actor('owner', { scopes: ['read:plants'] }));
    expectError(await unscoped.get('/api/v1/equipment'), 403, 'FORBIDDEN', /read:equipment/);
  });

  it('is not gated by the equipment_calibration feature', async () => {
    const id = await addEquipment(t, lab.workspaceId);
    await importFile(t, lab.workspaceId, { workspace: { features: [] } });
    expect(dataOf(await owner.get(`/api/v1/equipment/${id}`), 200).id).toBe(id);
    expect(dataOf(await owner.get('/api/v1/equipment'), 200)).toHaveLength(1);
  });
});
