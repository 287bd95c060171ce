import { parse } from 'csv-parse/sync';
import { expect, it } from 'vitest';
import { addRoom, dataOf, defineCustomFields, newExplant, newPlant } from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

const SPREADSHEET = 'text/csv; profile=spreadsheet';

/** The spreadsheet-friendly form of a list's CSV export; on both databases. */
describeOnDatabases('Spreadsheet-friendly CSV', (target) => {
  const { t, lab, owner } = labSuite(target);

  /** The rows of a list's CSV export as objects by header. */
  const exported = async (url: string, accept: string) => {
    const res = await t.request({ method: 'GET', url, headers: { ...lab.owner.headers, accept } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const parsed: unknown = parse(res.body);
    const [header, ...rows] = parsed as string[][];
    return {
      header: header!,
      rows: rows.map((row) => Object.fromEntries(row.map((v, i) => [header![i], v]))),
    };
  };

  it('names plants, rooms, stages and people, shows local times and a column per custom field', async () => {
    dataOf(await owner.patch('/api/v1/lab-settings', { time_zone: 'Europe/Berlin' }), 200);
    await defineCustomFields(t.database, lab.workspaceId, [
      { entity: 'plant', key: 'mother_line', type: 'text' },
      { entity: 'explant', key: 'sterile', type: 'boolean' },
    ]);
    const room = await addRoom(t.database, lab.workspaceId, 'Growth room A');
    const plant = await newPlant(owner, {
      species: 'Monstera deliciosa',
      external_id: 'MON-1',
      room_id: room,
      custom_fields: { mother_line: 'M7' },
      notes: '=HYPERLINK("http://x.example")',
    });
    await newExplant(owner, {
      label: 'Jar 1',
      plant_id: plant.id,
      initial_stage: 'Multiplication',
      custom_fields: { sterile: true },
    });

    const plants = await exported('/api/v1/plants', SPREADSHEET);
    expect(plants.header).toEqual(
      expect.arrayContaining([
        'ID',
        'Name',
        'Species',
        'External ID',
        'Mother line',
        'Archived by',
        'Stage',
        'Room',
        'In stage since (Europe/Berlin)',
        'Created at (Europe/Berlin)',
      ]),
    );
    expect(plants.header).not.toContain('Custom fields');
    expect(plants.header).not.toContain('Workspace ID');
    expect(plants.header).not.toContain('Current stage');
    const [row] = plants.rows;
    const berlin = (iso: string) =>
      new Intl.DateTimeFormat('sv-SE', {
        timeZone: 'Europe/Berlin',
        dateStyle: 'short',
        timeStyle: 'medium',
      }).format(new Date(iso));
    expect(row).toMatchObject({
      ID: plant.id,
      Species: 'Monstera deliciosa',
      'Mother line': 'M7',
      Stage: 'Mother Block',
      Room: 'Growth room A',
      'Created at (Europe/Berlin)': berlin(plant.created_at),
      // Formulas are still neutralised.
      Notes: `'=HYPERLINK("http://x.example")`,
    });

    const explants = await exported('/api/v1/explants', SPREADSHEET);
    expect(explants.rows[0]).toMatchObject({
      Label: 'Jar 1',
      Plant: 'Monstera deliciosa',
      Stage: 'Multiplication',
      Sterile: 'true',
    });

    // The raw form is as it was: ids, UTC, nested values as JSON.
    const raw = await exported('/api/v1/plants', 'text/csv');
    expect(raw.rows[0]).toMatchObject({
      id: plant.id,
      workspace_id: lab.workspaceId,
      created_at: plant.created_at,
      custom_fields: '{"mother_line":"M7"}',
    });
  });

  it('names the records and the person of a contamination, and its stage', async () => {
    const plant = await newPlant(owner, { species: 'Ficus lyrata' });
    dataOf(
      await owner.post('/api/v1/contaminations', {
        plant_id: plant.id,
        type: 'mold',
        issue: 'White fuzz',
      }),
      201,
    );
    const logs = await exported('/api/v1/contaminations', SPREADSHEET);
    expect(logs.rows[0]).toMatchObject({
      Plants: 'Ficus lyrata',
      Issue: 'White fuzz',
      'Logged by': 'owner member',
    });
    expect(logs.rows[0]!['Stage']).toBe('Mother Block');
  });
});
