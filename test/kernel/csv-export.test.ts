import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { csvCell, EXPORT_PAGE_ROWS, wantsCsv } from '../../src/kernel/routes/csv.js';
import { createPlant } from '../../src/modules/plants/index.js';
import { body, ownerPrincipal } from '../support/harness.js';
import { dataOf, expectError, listAll, newPlant } from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

/** The records of a CSV text, each a list of cells. */
const rowsOf = (text: string): string[][] => parse(text);

describe('CSV negotiation and cells', () => {
  it('answers CSV only when text/csv is asked for and JSON is not preferred', () => {
    expect(wantsCsv('text/csv')).toBe(true);
    expect(wantsCsv('TEXT/CSV; charset=utf-8')).toBe(true);
    expect(wantsCsv('text/csv, application/json')).toBe(true);
    expect(wantsCsv('application/json;q=0.5, text/csv')).toBe(true);
    expect(wantsCsv('text/csv;q=0.9, */*;q=0.8')).toBe(true);
    for (const accept of [
      undefined,
      '',
      '*/*',
      'application/json',
      'text/csv;q=0',
      'text/csv;q=0.5, application/json',
      'text/csv;q=0.5, */*',
      'text/csvx',
      'text/html',
    ]) {
      expect(wantsCsv(accept), String(accept)).toBe(false);
    }
  });

  it('neutralises text a spreadsheet would run as a formula, and writes other values plainly', () => {
    for (const text of ['=1+1', '+1', '-2', '@SUM(A1)', '\tx', '\rx']) {
      expect(csvCell(text)).toBe(`'${text}`);
    }
    // After a line break too: a spreadsheet, or a reader splitting lines, starts a line there.
    expect(csvCell('\n=1+1')).toBe("\n'=1+1");
    expect(csvCell('x\r+1+2')).toBe("x\r'+1+2");
    expect(csvCell('=a\r\n@b\n\tc\r\r-d')).toBe("'=a\r\n'@b\n'\tc\r'\r'-d");
    expect(csvCell('one\ntwo\r\nthree')).toBe('one\ntwo\r\nthree');
    expect(csvCell('Ficus lyrata')).toBe('Ficus lyrata');
    expect(csvCell('a=1')).toBe('a=1');
    expect(csvCell(-2)).toBe('-2');
    expect(csvCell(2.5)).toBe('2.5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell({ a: '=x' })).toBe('{"a":"=x"}');
    expect(csvCell(['x'])).toBe('["x"]');
  });
});

/** Every row a list's filters match, as CSV, from the routes kernel; on both databases. */
describeOnDatabases('CSV export of lists', (target) => {
  const { t, lab, owner } = labSuite(target, {}, { shared: true });
  const many = EXPORT_PAGE_ROWS * 2 + 7;
  const csvHeaders = (headers: Record<string, string> = {}) => ({
    ...lab.owner.headers,
    accept: 'text/csv',
    ...headers,
  });
  const exportCsv = (url: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url, headers: csvHeaders(headers) });

  beforeAll(async () => {
    const principal = ownerPrincipal(lab);
    // More rows than two export pages, one in three in Greenhouse.
    await inTransaction(t.database.db, async (trx) => {
      const start = Date.parse('2026-01-01T00:00:00Z');
      for (let i = 0; i < many; i += 1) {
        await createPlant(
          trx,
          principal,
          {
            species: `Ficus ${String(i).padStart(4, '0')}`,
            ...(i % 3 === 0 ? { initial_stage: 'Greenhouse' } : {}),
          },
          new Date(start + i * 60_000).toISOString(),
        );
      }
    });
  }, 120_000);

  it('answers every matching row, not one page, with the header of the list fields', async () => {
    const res = await exportCsv('/api/v1/plants?stage=greenhouse&limit=5');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="plants.csv"');
    expect(res.headers.vary).toBe('Accept');
    expect(res.headers['x-request-id']).toBeDefined();
    const [header, ...rows] = rowsOf(res.body);
    const json = await listAll(owner, '/api/v1/plants?stage=greenhouse');
    expect(json).toHaveLength(Math.ceil(many / 3));
    expect(header).toEqual(Object.keys(json[0]));
    expect(rows).toHaveLength(json.length);
    // Each row is its JSON item: nested values as JSON text, null as an empty cell.
    rows.forEach((row, i) => {
      expect(row).toEqual(header!.map((field) => csvCell(json[i][field])));
    });
    expect(JSON.parse(rows[0]![header!.indexOf('current_stage')]!)).toMatchObject({
      stage: 'greenhouse',
    });
    // Lines end with CRLF (RFC 4180).
    expect(res.body.slice(0, res.body.indexOf('\n') + 1)).toMatch(/\r\n$/);
  });

  it('exports the whole list, past page after page, in the list order', async () => {
    const [, ...rows] = rowsOf((await exportCsv('/api/v1/plants')).body);
    expect(rows).toHaveLength(many);
    expect(rows[0]![2]).toBe(`Ficus ${String(many - 1).padStart(4, '0')}`);
    expect(rows.at(-1)![2]).toBe('Ficus 0000');
    expect(new Set(rows.map((row) => row[0])).size).toBe(many);
  });

  it('neutralises cells a spreadsheet would run as a formula', async () => {
    const plant = await newPlant(owner, {
      species: '=HYPERLINK("http://x","y")',
      common_name: '+1 555',
      cultivar: '-2',
      family: '@SUM(A1)',
      source: '\tTab',
      notes: '\rReturn',
      external_id: 'DANGER-1',
    });
    const res = await exportCsv('/api/v1/plants?q=danger-1');
    const [header, row] = rowsOf(res.body);
    const cell = (field: string) => row![header!.indexOf(field)];
    expect(cell('id')).toBe(plant.id);
    expect(cell('species')).toBe(`'=HYPERLINK("http://x","y")`);
    expect(cell('name')).toBe("'+1 555");
    expect(cell('cultivar')).toBe("'-2");
    expect(cell('family')).toBe("'@SUM(A1)");
    expect(cell('source')).toBe("'\tTab");
    expect(cell('notes')).toBe("'\rReturn");
    expect(cell('custom_fields')).toBe('{}');
    dataOf(await owner.post(`/api/v1/plants/${plant.id}/archive`, {}), 200);
  });

  it('answers failures before the first byte in the JSON envelope', async () => {
    expectError(
      await exportCsv('/api/v1/plants?stage=nowhere'),
      422,
      'VALIDATION_ERROR',
      /^stage: /,
    );
    expectError(await exportCsv('/api/v1/plants?cursor=x.y'), 422, 'INVALID_CURSOR');
    const unauthenticated = await t.request({
      method: 'GET',
      url: '/api/v1/plants',
      headers: { accept: 'text/csv' },
    });
    expect(unauthenticated.statusCode).toBe(401);
    expect(unauthenticated.headers['content-type']).toMatch(/^application\/json/);
    const narrow = await lab.actor('owner', { scopes: ['read:explants'] });
    const refused = await t.request({
      method: 'GET',
      url: '/api/v1/plants',
      headers: { ...narrow.headers, accept: 'text/csv' },
    });
    expect({ status: refused.statusCode, code: body(refused).code }).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
  });

  it('answers JSON as before unless CSV is asked for, and JSON on lists that do not export', async () => {
    for (const accept of ['application/json', '*/*', 'text/csv;q=0', 'text/csv;q=0.1, */*']) {
      const res = await t.request({
        method: 'GET',
        url: '/api/v1/plants?limit=2',
        headers: { ...lab.owner.headers, accept },
      });
      expect(body(res).data).toHaveLength(2);
      expect(res.headers.vary).toBe('Accept');
    }
    const recipes = await exportCsv('/api/v1/media-recipes');
    expect(recipes.headers['content-type']).toMatch(/^application\/json/);
    expect(body(recipes).ok).toBe(true);
  });

  it('exports the other lists the console shows, each with its own fields', async () => {
    for (const [url, first] of [
      ['/api/v1/explants', 'id'],
      ['/api/v1/contaminations', 'id'],
      ['/api/v1/tasks', 'id'],
      ['/api/v1/sop-runs', 'id'],
      ['/api/v1/rooms', 'id'],
      ['/api/v1/people', 'id'],
      ['/api/v1/activity', 'id'],
      ['/api/v1/events?entity=plant', 'id'],
      ['/api/v1/devices', 'id'],
      ['/api/v1/sops', 'id'],
    ] as const) {
      const res = await exportCsv(url);
      expect(res.statusCode, url).toBe(200);
      const [header] = rowsOf(res.body);
      expect(header![0], url).toBe(first);
    }
    const [header, ...events] = rowsOf((await exportCsv('/api/v1/activity')).body);
    expect(events.length).toBeGreaterThan(many);
    expect(JSON.parse(events.at(-1)![header!.indexOf('payload')]!)).toMatchObject({
      species: 'Ficus 0000',
    });
  });

  it('answers CSV to ?format=csv and ?format=spreadsheet with no Accept header (a link), as to the header', async () => {
    const plain = { ...lab.owner.headers };
    const byLink = await t.request({
      method: 'GET',
      url: '/api/v1/plants?stage=greenhouse&format=csv',
      headers: plain,
    });
    expect(byLink.statusCode).toBe(200);
    expect(byLink.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(byLink.body).toBe((await exportCsv('/api/v1/plants?stage=greenhouse')).body);
    const sheet = await t.request({
      method: 'GET',
      url: '/api/v1/plants?stage=greenhouse&format=spreadsheet',
      headers: { ...plain, accept: 'application/json' },
    });
    expect(sheet.body).toBe(
      (
        await exportCsv('/api/v1/plants?stage=greenhouse', {
          accept: 'text/csv; profile=spreadsheet',
        })
      ).body,
    );
    expectError(
      await t.request({ method: 'GET', url: '/api/v1/plants?format=xml', headers: plain }),
      422,
      'VALIDATION_ERROR',
      /format/,
    );
    // A list that does not export answers JSON, as to the header.
    const recipes = await t.request({
      method: 'GET',
      url: '/api/v1/media-recipes?format=csv',
      headers: plain,
    });
    expect(recipes.headers['content-type']).toMatch(/^application\/json/);
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const format = doc.paths['/api/v1/plants'].get.parameters.find(
      (p: { name: string }) => p.name === 'format',
    );
    expect(format.schema.enum).toEqual(['csv', 'spreadsheet']);
  });

  it('says in the OpenAPI document which lists answer CSV', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const plants = doc.paths['/api/v1/plants'];
    expect(plants.get['x-csv']).toBe(true);
    expect(Object.keys(plants.get.responses['200'].content)).toEqual([
      'application/json',
      'text/csv',
    ]);
    expect(plants.get.description).toContain('**CSV:**');
    expect(plants.post['x-csv']).toBeUndefined();
    expect(Object.keys(doc.paths['/api/v1/media-recipes'].get.responses['200'].content)).toEqual([
      'application/json',
    ]);
  });
});
