import writeExcelFile from 'write-excel-file/node';
import { expect, it } from 'vitest';
import { XLSX_MEDIA_TYPE } from '../../src/kernel/http.js';
import { body } from '../support/harness.js';
import {
  addRoom,
  client,
  dataOf,
  defineCustomFields,
  expectError,
  listAll,
  newPlant,
} from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

type Sheet = (string | number | Date | null)[][];

/** A CSV of rows (cells quoted where they must be), as a spreadsheet saves it. */
const csv = (rows: Sheet): string =>
  rows
    .map((row) =>
      row
        .map((cell) => {
          const text = cell === null ? '' : String(cell);
          return /[",\n;]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
        })
        .join(','),
    )
    .join('\r\n') + '\r\n';

const xlsx = (rows: Sheet): Promise<Buffer> =>
  (writeExcelFile as unknown as (data: unknown) => { toBuffer(): Promise<Buffer> })(
    rows.map((row) =>
      row.map((cell) =>
        cell instanceof Date ? { value: cell, format: 'yyyy-mm-dd' } : { value: cell },
      ),
    ),
  ).toBuffer();

/** POST /imports of spreadsheets: CSV and XLSX, dry runs, all or nothing; on both databases. */
describeOnDatabases('Spreadsheet imports', (target) => {
  const { t, lab, owner } = labSuite(target);

  const send = (
    kind: string,
    payload: string | Buffer,
    options: { type?: string; dryRun?: boolean; headers?: Record<string, string> } = {},
  ) =>
    t.request({
      method: 'POST',
      url: `/api/v1/imports?kind=${kind}${options.dryRun === true ? '&dry_run=true' : ''}`,
      headers: {
        ...lab.owner.headers,
        'content-type': options.type ?? 'text/csv',
        ...options.headers,
      },
      payload,
    });

  it('imports plants from CSV by header names as a lab writes them, and again changes nothing', async () => {
    const room = await addRoom(t.database, lab.workspaceId, 'Growth room A');
    await defineCustomFields(t.database, lab.workspaceId, [
      { entity: 'plant', key: 'mother_line', type: 'text' },
      { entity: 'plant', key: 'potted', type: 'date' },
    ]);
    const file = csv([
      ['species', ' Cultivar ', 'EXTERNAL ID', 'Status', 'room', 'Mother line', 'Potted'],
      [
        'Monstera deliciosa',
        'Thai Constellation',
        'MON-1',
        'In culture',
        'growth room a',
        'M7',
        '2025-03-01',
      ],
      ['Ficus lyrata', null, 'FIC-1', null, null, null, null],
      [null, null, null, null, null, null, null],
      ['Hoya carnosa', 'Krimson', null, 'dormant', 'Growth room A', null, null],
    ]);
    const first = body(await send('plants', file));
    expect(first.ok).toBe(true);
    expect(first.data).toMatchObject({
      kind: 'plants',
      dry_run: false,
      encoding: 'utf-8',
      counts: { rows: 3, created: 3, updated: 0, unchanged: 0, failed: 0 },
    });
    // Rows as the spreadsheet numbers them: the blank row 4 is passed over.
    expect(first.data.rows.map((r: { row: number; status: string }) => [r.row, r.status])).toEqual([
      [2, 'created'],
      [3, 'created'],
      [5, 'created'],
    ]);
    const monstera = dataOf(await owner.get(`/api/v1/plants/${first.data.rows[0].id}`), 200);
    expect(monstera).toMatchObject({
      species: 'Monstera deliciosa',
      cultivar: 'Thai Constellation',
      external_id: 'MON-1',
      status: 'in_culture',
      custom_fields: { mother_line: 'M7', potted: '2025-03-01' },
      current_stage: { stage: 'mother_block', room_id: room },
    });
    expect(await listAll(owner, '/api/v1/plants')).toHaveLength(3);

    // Again: the rows with an External ID are the same plants; the one without is new.
    const again = body(await send('plants', file)).data;
    expect(again.counts).toMatchObject({ created: 1, unchanged: 2, updated: 0 });
    expect(again.rows[0].id).toBe(monstera.id);
    // A changed cell updates the plant (a PATCH of what the row fills in).
    const changed = file.replace('Thai Constellation', 'Albo');
    const third = body(await send('plants', changed)).data;
    expect(third.rows[0]).toMatchObject({ status: 'updated', id: monstera.id });
    expect(dataOf(await owner.get(`/api/v1/plants/${monstera.id}`), 200).cultivar).toBe('Albo');
    expect(await listAll(owner, '/api/v1/plants')).toHaveLength(5);
  });

  it('answers a dry run with what each row would do, writing nothing', async () => {
    const existing = await newPlant(owner, { species: 'Ficus lyrata', external_id: 'FIC-1' });
    const file = csv([
      ['Species', 'External ID', 'Notes'],
      ['Ficus lyrata', 'fic-1', 'repotted'],
      ['Ficus elastica', 'FIC-2', null],
    ]);
    const res = await send('plants', file, { dryRun: true });
    expect(res.statusCode).toBe(200);
    expect(body(res).data).toMatchObject({
      dry_run: true,
      counts: { rows: 2, created: 1, updated: 1 },
      rows: [
        { row: 2, status: 'updated', id: existing.id, error: null },
        { row: 3, status: 'created', id: null, error: null },
      ],
    });
    expect(await listAll(owner, '/api/v1/plants')).toHaveLength(1);
    expect(dataOf(await owner.get(`/api/v1/plants/${existing.id}`), 200).notes).toBeNull();
  });

  it("refuses a file with wrong rows as a whole: 422 with every row's outcome in the API's words", async () => {
    await defineCustomFields(t.database, lab.workspaceId, [
      { entity: 'plant', key: 'potted', type: 'date' },
    ]);
    const file = csv([
      ['Species', 'External ID', 'Potted', 'Status', 'Room'],
      ['Ficus lyrata', 'A-1', '2025-01-02', null, null],
      ['Ficus lyrata', 'A-2', '02/30/2025', null, null],
      ['Ficus lyrata', 'a-1', null, null, null],
      ['', 'A-3', null, null, null],
      ['Ficus lyrata', 'A-4', null, 'sleeping', null],
      ['Ficus lyrata', 'A-5', null, null, 'Nowhere'],
    ]);
    for (const dryRun of [false, true]) {
      const res = await send('plants', file, { dryRun });
      expectError(
        res,
        422,
        'VALIDATION_ERROR',
        /^5 of 6 rows cannot be imported, so nothing was \(row 3: custom_fields\.potted: must be a date/,
      );
      const details = body(res).details;
      expect(details.counts).toMatchObject({ rows: 6, created: 1, failed: 5 });
      expect(
        details.rows.map(
          (r: { row: number; status: string; column: string | null; error: string | null }) => [
            r.row,
            r.status,
            r.column,
            r.error?.replace(/:.*/, ''),
          ],
        ),
      ).toEqual([
        [2, 'created', null, undefined],
        [3, 'failed', 'Potted', 'custom_fields.potted'],
        [4, 'failed', 'External ID', 'external_id'],
        [5, 'failed', 'Species', 'species'],
        [6, 'failed', 'Status', 'status'],
        [7, 'failed', 'Room', 'room'],
      ]);
      expect(details.rows[2].error).toBe('external_id: this External ID is also on row 2');
      expect(details.rows[5].error).toBe('room: the lab has no room named "Nowhere"');
    }
    expect(await listAll(owner, '/api/v1/plants')).toEqual([]);
  });

  it('refuses a wrong header, a missing column, a file not CSV or XLSX, and one too large, writing nothing', async () => {
    expectError(
      await send(
        'plants',
        csv([
          ['Species', 'Colour'],
          ['Ficus', 'green'],
        ]),
      ),
      422,
      'VALIDATION_ERROR',
      /^file: column B "Colour" is not a column of a plants import; the columns are Species, /,
    );
    expectError(
      await send('plants', csv([['Cultivar'], ['Albo']])),
      422,
      'VALIDATION_ERROR',
      /^file: a plants import needs a Species column/,
    );
    expectError(
      await send(
        'plants',
        csv([
          ['Species', 'Variety', 'Cultivar'],
          ['a', 'b', 'c'],
        ]),
      ),
      422,
      'VALIDATION_ERROR',
      /both Cultivar/,
    );
    expectError(await send('plants', ''), 422, 'VALIDATION_ERROR', /file: the file is empty/);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    expectError(await send('plants', png), 422, 'VALIDATION_ERROR', /not a CSV file/);
    expectError(
      await send('plants', png, { type: XLSX_MEDIA_TYPE }),
      422,
      'VALIDATION_ERROR',
      /not an XLSX workbook/,
    );
    expectError(
      await send('plants', png, { type: 'image/png' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      /takes a file: send it as Content-Type: text\/csv or application\/vnd\.openxml/,
    );
    expectError(
      await send('plants', JSON.stringify({ species: 'x' }), { type: 'application/json' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      /takes a file/,
    );
    // Another operation takes no file.
    expectError(
      await t.request({
        method: 'POST',
        url: '/api/v1/plants',
        headers: { ...lab.owner.headers, 'content-type': 'text/csv' },
        payload: 'Species\nFicus\n',
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      /application\/json/,
    );
    const huge = Buffer.alloc(60 * 1024 * 1024, 0x61);
    expectError(
      await send('plants', huge),
      413,
      'PAYLOAD_TOO_LARGE',
      /^An import file may be at most 16 MB; split it into several files$/,
    );
    expect(await listAll(owner, '/api/v1/plants')).toEqual([]);
  });

  it('reads UTF-8 with a byte order mark and Latin-1, refuses a file mixing them; formulas stay text', async () => {
    const bom = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(
        csv([
          ['Species', 'External ID'],
          ['Begonia Müller', 'B-1'],
        ]),
      ),
    ]);
    const utf8 = body(await send('plants', bom)).data;
    expect(utf8.encoding).toBe('utf-8');
    const latin1 = Buffer.from(
      csv([
        ['Species', 'Notes'],
        ['Begonia Béatrice', 'für den Labor'],
      ]),
      'latin1',
    );
    const read = body(await send('plants', latin1)).data;
    expect(read.encoding).toBe('windows-1252');
    expect(dataOf(await owner.get(`/api/v1/plants/${read.rows[0].id}`), 200)).toMatchObject({
      species: 'Begonia Béatrice',
      notes: 'für den Labor',
    });
    expect(dataOf(await owner.get(`/api/v1/plants/${utf8.rows[0].id}`), 200).species).toBe(
      'Begonia Müller',
    );
    const mixed = Buffer.concat([
      Buffer.from('Species\nBegonia Müller\n', 'utf8'),
      Buffer.from('Begonia Béatrice\n', 'latin1'),
    ]);
    expectError(
      await send('plants', mixed),
      422,
      'VALIDATION_ERROR',
      /^file: mixes encodings: UTF-8 characters, and on line 3 a byte UTF-8 cannot hold/,
    );
    const formula = body(
      await send(
        'plants',
        csv([
          ['Species', 'Notes'],
          ['=HYPERLINK("http://x.example")', '+1+2'],
        ]),
      ),
    ).data;
    const plant = dataOf(await owner.get(`/api/v1/plants/${formula.rows[0].id}`), 200);
    expect(plant).toMatchObject({ species: '=HYPERLINK("http://x.example")', notes: '+1+2' });
    const exported = await t.request({
      method: 'GET',
      url: '/api/v1/plants',
      headers: { ...lab.owner.headers, accept: 'text/csv' },
    });
    expect(exported.body).toContain(`"'=HYPERLINK(""http://x.example"")"`);
    expect(await listAll(owner, '/api/v1/plants')).toHaveLength(3);
  });

  it('imports XLSX (dates, numbers) and semicolon CSV alike', async () => {
    await defineCustomFields(t.database, lab.workspaceId, [
      { entity: 'plant', key: 'potted', type: 'date' },
      { entity: 'plant', key: 'height', type: 'number' },
    ]);
    const file = await xlsx([
      ['Species', 'External ID', 'Potted', 'Height'],
      ['Alocasia', 1001, new Date(Date.UTC(2025, 2, 4)), 12.5],
    ]);
    const result = body(await send('plants', file, { type: XLSX_MEDIA_TYPE })).data;
    expect(result).toMatchObject({ encoding: null, counts: { created: 1 } });
    expect(dataOf(await owner.get(`/api/v1/plants/${result.rows[0].id}`), 200)).toMatchObject({
      external_id: '1001',
      custom_fields: { potted: '2025-03-04', height: 12.5 },
    });
    const semicolons = 'Species;Cultivar\r\nHoya;Krimson, Queen\r\n';
    const second = body(await send('plants', semicolons)).data;
    expect(dataOf(await owner.get(`/api/v1/plants/${second.rows[0].id}`), 200).cultivar).toBe(
      'Krimson, Queen',
    );
  });

  it('imports explants under their plant (by external id or name), matched on Label within it', async () => {
    const room = await addRoom(t.database, lab.workspaceId, 'Culture room');
    const monstera = await newPlant(owner, { species: 'Monstera deliciosa', external_id: 'MON-1' });
    const hoya = await newPlant(owner, { species: 'Hoya carnosa' });
    const file = csv([
      ['Label', 'Plant', 'Vessels', 'Plantlets', 'Stage', 'Room', 'Batch'],
      ['MON-1-01', 'mon-1', '4', '12', 'Multiplication', 'Culture room', 'B-7'],
      ['MON-1-02', 'MON-1', '2', null, 'multiplication', 'culture room', 'B-7'],
      ['H-01', 'hoya carnosa', '1', null, null, null, null],
    ]);
    const first = body(await send('explants', file)).data;
    expect(first.counts).toMatchObject({ created: 3 });
    const explant = dataOf(await owner.get(`/api/v1/explants/${first.rows[0].id}`), 200);
    expect(explant).toMatchObject({
      label: 'MON-1-01',
      plant_id: monstera.id,
      initial_count: 4,
      current_count: 4,
      plantlet_count: 12,
      batch_number: 'B-7',
      current_stage: { stage: 'multiplication', room_id: room },
    });
    expect(dataOf(await owner.get(`/api/v1/explants/${first.rows[2].id}`), 200)).toMatchObject({
      plant_id: hoya.id,
      current_stage: null,
    });
    // Again, with new counts: the same explants, updated.
    const again = body(await send('explants', file.replace(',4,12,', ',3,10,'))).data;
    expect(again.counts).toMatchObject({ created: 0, updated: 1, unchanged: 2 });
    expect(dataOf(await owner.get(`/api/v1/explants/${first.rows[0].id}`), 200)).toMatchObject({
      current_count: 3,
      plantlet_count: 10,
    });
    expect(await listAll(owner, '/api/v1/explants')).toHaveLength(3);
    const bad = await send(
      'explants',
      csv([
        ['Label', 'Plant', 'Vessels'],
        ['X-1', 'Nepenthes', '1'],
        ['X-2', 'MON-1', 'many'],
      ]),
    );
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(body(bad).details.rows).toMatchObject([
      {
        row: 2,
        status: 'failed',
        column: 'Plant',
        error: 'plant_id: no plant of the lab has the external id or name "Nepenthes"',
      },
      { row: 3, status: 'failed', column: 'Vessels' },
    ]);
    expect(body(bad).details.rows[1].error).toMatch(/^initial_count: /);
  });

  it('imports rooms by Name; the kind needs its own scope', async () => {
    const first = body(
      await send('rooms', csv([['Room name'], ['Growth room A'], ['Hood room']])),
    ).data;
    expect(first.counts).toMatchObject({ created: 2 });
    const again = body(
      await send('rooms', csv([['Name'], ['Growth room A'], ['Media prep']])),
    ).data;
    expect(again.counts).toMatchObject({ created: 1, unchanged: 1 });
    expect((await listAll(owner, '/api/v1/rooms')).map((r) => r.name)).toEqual([
      'Growth room A',
      'Hood room',
      'Media prep',
    ]);
    const member = await lab.actor('member');
    expectError(
      await send('rooms', csv([['Name'], ['Cold room']]), { headers: member.headers }),
      403,
      'FORBIDDEN',
      /write:workspace/,
    );
    const reader = await lab.actor('manager', { scopes: ['read:plants', 'write:explants'] });
    expectError(
      await send('plants', csv([['Species'], ['Ficus']]), { headers: reader.headers }),
      403,
      'FORBIDDEN',
      /write:plants/,
    );
    dataOf(await send('explants', csv([['Label'], ['J-1']]), { headers: reader.headers }), 200);
    expect(await listAll(client(t, lab.owner), '/api/v1/rooms')).toHaveLength(3);
  });

  it('imports 10,000 plants in one file', async () => {
    const rows: Sheet = [['Species', 'External ID', 'Cultivar']];
    for (let i = 0; i < 10_000; i++) rows.push([`Ficus ${i % 50}`, `F-${i}`, 'Variegata']);
    const file = csv(rows);
    const result = body(await send('plants', file)).data;
    expect(result.counts).toEqual({
      rows: 10_000,
      created: 10_000,
      updated: 0,
      unchanged: 0,
      failed: 0,
    });
    const page = body(await owner.get('/api/v1/plants?limit=1&externalId=F-9999'));
    expect(page.data).toHaveLength(1);
    const tooMany = csv([...rows, ['Ficus', 'F-10000', null]]);
    expectError(
      await send('plants', tooMany),
      413,
      'PAYLOAD_TOO_LARGE',
      /10,001 rows; an import takes at most 10,000/,
    );
  }, 60_000);
});
