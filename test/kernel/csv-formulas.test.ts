import { parse } from 'csv-parse/sync';
import { expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { addMember, createApiKey } from '../../src/modules/identity/identity.service.js';
import { body } from '../support/harness.js';
import { addRoom, dataOf, GENEROUS_LIMITS, newExplant, newPlant } from '../support/helpers.js';
import { signIn } from '../support/sessions.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { importSops, subcultureSop } from '../records/sop-helpers.js';

/**
 * Text a spreadsheet would run: a formula at the start, and after a bare LF, a
 * bare CR or a CRLF (each of which a spreadsheet, or a reader splitting lines,
 * takes for the start of a new line or row).
 */
const DANGER = '\n=1+1 x\r+1+2\r\n@SUM(A1)\n\t-3';
const DANGER_START = '=2+2\n-4';
/** What the cells hold once neutralised: a `'` before every such start. */
const NEUTRALISED = "\n'=1+1 x\r'+1+2\r\n'@SUM(A1)\n'\t-3";
const NEUTRALISED_START = "'=2+2\n'-4";

const FORMULA = /^[=+\-@\t\r]/;
const LINE_BREAK = /\r\n|\r|\n/;

/** The records of a CSV text, each a list of cells, read by a real CSV parser. */
const rowsOf = (text: string): string[][] => parse(text);

/** The lines a cell's text shows, each of which a spreadsheet may start a row or formula at. */
const linesOf = (cell: string) => cell.split(LINE_BREAK);

/** Each list that answers CSV, with the query it needs; the test requires this to be all of them. */
const LISTS: Record<string, string> = {
  '/api/v1/plants': '',
  '/api/v1/explants': '',
  '/api/v1/contaminations': '',
  '/api/v1/tasks': '',
  '/api/v1/sops': '',
  '/api/v1/sop-runs': '',
  '/api/v1/rooms': '',
  '/api/v1/events': '?entity=plant',
  '/api/v1/activity': '',
  '/api/v1/devices': '',
  '/api/v1/people': '',
  '/api/v1/members': '',
  '/api/v1/api-keys': '',
  '/api/v1/insights/contamination': '?by=location',
  '/api/v1/insights/exposures': `?by=location&group=${encodeURIComponent(DANGER)}`,
  '/api/v1/insights/multiplication': '?by=plant',
  '/api/v1/insights/stages': '',
  '/api/v1/insights/forecast': '?plant_id=',
};

/** Exports whose cells are numbers and dates only: no text to hold. */
const NUMBERS_ONLY = new Set(['/api/v1/insights/forecast']);

describeOnDatabases('CSV exports against formula injection', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });

  it('every list: no cell, nor any line of one, starts a formula unless neutralised', async () => {
    const doc = body(await t.request({ method: 'GET', url: '/api/v1/openapi.json' }));
    const exported = Object.entries(doc.paths as Record<string, { get?: { 'x-csv'?: boolean } }>)
      .filter(([, path]) => path.get?.['x-csv'] === true)
      .map(([url]) => url)
      .sort();
    expect(exported).toEqual(Object.keys(LISTS).sort());

    // Dangerous text in a text field of a record of every list.
    const plant = await newPlant(owner, { species: DANGER_START, notes: DANGER });
    await newExplant(owner, { label: DANGER_START, notes: DANGER });
    dataOf(
      await owner.post('/api/v1/contaminations', {
        plant_id: plant.id,
        type: 'mold',
        issue: DANGER_START,
        notes: DANGER,
      }),
      201,
    );
    dataOf(await owner.post('/api/v1/tasks', { title: DANGER_START, notes: DANGER }), 201);
    const sop = subcultureSop(DANGER_START);
    await importSops(t.database, lab.workspaceId, [sop.sop]);
    dataOf(await owner.post('/api/v1/sop-runs', { sop_id: sop.ids.sop, batch_code: DANGER }), 201);
    await addRoom(t.database, lab.workspaceId, DANGER_START);
    dataOf(await owner.post('/api/v1/devices', { name: DANGER_START, hardware: DANGER }), 201);
    const person = await inTransaction(t.database.db, (trx) =>
      addMember(trx, { workspaceId: lab.workspaceId, name: DANGER_START, role: 'member' }),
    );
    await inTransaction(t.database.db, (trx) =>
      createApiKey(trx, { memberId: person.id, name: DANGER_START, scopes: [] }),
    );
    // Handled explants: a transfer from a dangerous location, of a plant of a dangerous
    // species, and a stage of a dangerous name.
    dataOf(
      await owner.patch('/api/v1/stage-lists', {
        explant: [{ key: 'danger', name: DANGER_START }],
      }),
      200,
    );
    const handled = await newExplant(owner, {
      label: 'Handled',
      plant_id: plant.id,
      initial_count: 2,
      initial_stage: 'danger',
    });
    // Two days ago and yesterday: a cycle of a day, a 4-week rate for the forecast.
    for (const [days, vessels] of [
      [2, 4],
      [1, 8],
    ] as const) {
      dataOf(
        await owner.post('/api/v1/transfers', {
          explant_id: handled.id,
          from_location: DANGER,
          vessel_count: vessels,
          transfer_date: new Date(Date.now() - days * 86_400_000).toISOString(),
        }),
        201,
      );
    }
    LISTS['/api/v1/insights/forecast'] = `?plant_id=${plant.id}`;
    const console = await signIn(t, lab.owner.memberId);

    for (const [url, query] of Object.entries(LISTS)) {
      const res = await console.request({
        method: 'GET',
        url: url + query,
        headers: { accept: 'text/csv' },
      });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('text/csv; charset=utf-8');
      const text = res.body;

      // A real CSV parser: every cell, and every line inside a cell.
      const cells = rowsOf(text).flat();
      for (const cell of cells) {
        for (const line of linesOf(cell))
          expect(line, `${url}: ${JSON.stringify(cell)}`).not.toMatch(FORMULA);
      }
      // A reader that splits the text at every line break, quotes or not.
      for (const line of linesOf(text)) {
        expect(line.replace(/^"/, ''), `${url}: ${JSON.stringify(line)}`).not.toMatch(FORMULA);
      }
      // The dangerous text is there (neutralised, or inside a JSON value's escapes).
      const held =
        cells.some((cell) => cell.includes(NEUTRALISED) || cell.includes(NEUTRALISED_START)) ||
        cells.some((cell) => cell.includes(JSON.stringify(DANGER).slice(1, -1)));
      expect(held || NUMBERS_ONLY.has(url), url).toBe(true);
    }

    // Neutralised and nothing else: the parser gives back the text with its `'`s.
    const plants = rowsOf(
      (
        await t.request({
          method: 'GET',
          url: '/api/v1/plants',
          headers: { ...lab.owner.headers, accept: 'text/csv' },
        })
      ).body,
    );
    const [header, row] = plants;
    expect(row![header!.indexOf('species')]).toBe(NEUTRALISED_START);
    expect(row![header!.indexOf('notes')]).toBe(NEUTRALISED);
  });

  it('quotes every field that holds a CR or LF', async () => {
    await newPlant(owner, { species: 'Ficus', notes: 'one\rtwo', source: 'three\nfour' });
    const text = (
      await t.request({
        method: 'GET',
        url: '/api/v1/plants',
        headers: { ...lab.owner.headers, accept: 'text/csv' },
      })
    ).body;
    expect(text).toContain(',"one\rtwo",');
    expect(text).toContain(',"three\nfour",');
    // Records end with CRLF; the only other breaks are inside quoted fields.
    expect(text.split('\r\n').filter((line) => line !== '')).toHaveLength(2);
  });
});
