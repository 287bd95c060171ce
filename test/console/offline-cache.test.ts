import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { answerKey } from '../../web/src/api/cache-keys.js';
import { labelsOf, resolution } from '../../web/src/api/cache-labels.js';
import { CACHE_CAPS, ReadStore, type CacheCaps } from '../../web/src/api/cache-store.js';

const DAY = 86_400_000;
let databases = 0;
/** A store of its own (IndexedDB in memory, fake-indexeddb) with these caps. */
const store = (caps: Partial<CacheCaps> = {}) =>
  ReadStore.open({ ...CACHE_CAPS, ...caps }, `vitro-reads-test-${++databases}`);

const answer = (key: string, savedAt: number, body = '{"ok":true,"data":{}}') => ({
  key,
  body,
  savedAt,
});

describe("the console's reads kept for offline use", () => {
  it('keeps at most maxAnswers, dropping the oldest first', async () => {
    const reads = await store({ maxAnswers: 3 });
    await reads.claim('maya@lab');
    const now = Date.now();
    for (const [i, key] of ['/a', '/b', '/c', '/d', '/e'].entries()) {
      expect(await reads.put(answer(`/api/v1${key}`, now + i))).toBe(true);
    }
    expect(await reads.count('answers')).toBe(3);
    expect(await reads.get('/api/v1/a', now)).toBeNull();
    expect(await reads.get('/api/v1/b', now)).toBeNull();
    expect((await reads.get('/api/v1/e', now))?.savedAt).toBe(now + 4);
    // Read again: its time is the new one, so it is the last to go.
    await reads.put(answer('/api/v1/c', now + 10));
    await reads.put(answer('/api/v1/f', now + 11));
    expect(await reads.get('/api/v1/c', now)).not.toBeNull();
    expect(await reads.get('/api/v1/d', now)).toBeNull();
    reads.close();
  });

  it('answers nothing read longer ago than maxAgeMs, and drops it', async () => {
    const reads = await store({ maxAgeMs: 7 * DAY });
    await reads.claim('maya@lab');
    const now = Date.now();
    await reads.put(answer('/api/v1/plants/old', now - 8 * DAY));
    await reads.put(answer('/api/v1/plants/week', now - 6 * DAY));
    expect(await reads.get('/api/v1/plants/old', now)).toBeNull();
    expect(await reads.get('/api/v1/plants/week', now)).not.toBeNull();
    // A week later the other one goes too, and each put trims what expired.
    expect(await reads.get('/api/v1/plants/week', now + 2 * DAY)).toBeNull();
    await reads.put(answer('/api/v1/plants/new', now - 6 * DAY));
    await reads.put(answer('/api/v1/plants/newer', now + 2 * DAY));
    expect(await reads.count('answers')).toBe(1);
    reads.close();
  });

  it('keeps no answer larger than maxAnswerBytes', async () => {
    const reads = await store({ maxAnswerBytes: 100 });
    await reads.claim('maya@lab');
    expect(await reads.put(answer('/api/v1/sensor-readings', Date.now(), 'x'.repeat(101)))).toBe(
      false,
    );
    expect(await reads.count('answers')).toBe(0);
    reads.close();
  });

  it('keeps at most maxLabels label codes, and finds one ignoring case', async () => {
    const reads = await store({ maxLabels: 2 });
    const now = Date.now();
    const label = (code: string, at: number) => ({
      code: code.toLowerCase(),
      recordType: 'plant' as const,
      recordId: code,
      displayName: code,
      savedAt: at,
    });
    await reads.putLabels([label('VT-P-0001', now)]);
    await reads.putLabels([label('VT-P-0002', now + 1), label('VT-P-0003', now + 2)]);
    expect(await reads.count('labels')).toBe(2);
    expect(await reads.label('VT-P-0001', now)).toBeNull();
    expect((await reads.label('vt-p-0003', now))?.recordId).toBe('VT-P-0003');
    reads.close();
  });

  it('drops everything on sign-out (clear) and when another person claims the device', async () => {
    const reads = await store();
    const now = Date.now();
    await reads.claim('maya@lab');
    await reads.put(answer('/api/v1/plants/1', now));
    await reads.putLabels(labelsOf(new URL('http://x/api/v1/plants/1'), plantBody, now));
    // The same person again (a new session): kept.
    await reads.claim('maya@lab');
    expect(await reads.count('answers')).toBe(1);
    // Another person signs in on this tablet: nothing of Maya's is left.
    await reads.claim('luis@lab');
    expect(await reads.count('answers')).toBe(0);
    expect(await reads.count('labels')).toBe(0);
    expect(await reads.owner()).toBe('luis@lab');
    await reads.put(answer('/api/v1/plants/2', now));
    await reads.clear();
    expect(await reads.count('answers')).toBe(0);
    expect(await reads.owner()).toBeNull();
    reads.close();
  });
});

const plantBody = JSON.stringify({
  ok: true,
  data: {
    id: '01a2199b-4c64-703a-999d-8ad8e2392f8a',
    name: 'Monstera mother',
    external_id: 'MON-TC-01',
  },
});

describe('what a read is kept under, and the label codes it tells', () => {
  it('sorts the query and leaves moments out; keeps no sign-in link check nor anything outside the API', () => {
    expect(answerKey('http://lab/api/v1/tasks?open=true&due_before=2026-11-30T00:00:00.000Z')).toBe(
      '/api/v1/tasks?due_before=*&open=true',
    );
    expect(answerKey('http://lab/api/v1/tasks?open=true&due_before=2026-12-01T00:00:00.000Z')).toBe(
      '/api/v1/tasks?due_before=*&open=true',
    );
    expect(answerKey('http://lab/api/v1/rooms?limit=200')).toBe('/api/v1/rooms?limit=200');
    expect(answerKey('http://lab/api/v1/plants?stage=x&limit=50')).toBe(
      '/api/v1/plants?limit=50&stage=x',
    );
    expect(answerKey('http://lab/api/v1/plants?limit=50&cursor=abc')).toBeNull();
    expect(answerKey('http://lab/api/v1/sign-in-link')).toBeNull();
    expect(answerKey('http://lab/api/v1/labels/codes?plant_ids=a')).toBeNull();
    expect(answerKey('http://lab/files/photo.jpg')).toBeNull();
  });

  it("tells a record's id and identifiers, a resolved label's code, a label sheet's codes", () => {
    const id = '01a2199b-4c64-703a-999d-8ad8e2392f8a';
    expect(
      labelsOf(new URL(`http://lab/api/v1/plants/${id}`), plantBody, 5).map((l) => l.code),
    ).toEqual([id, 'mon-tc-01']);
    const explant = JSON.stringify({
      data: { id, label: 'MON-TC-B01', external_id: null, batch_number: 'B-7' },
    });
    const fromExplant = labelsOf(new URL(`http://lab/api/v1/explants/${id}`), explant, 5);
    expect(fromExplant.map((l) => [l.code, l.recordType, l.displayName])).toEqual([
      [id, 'explant', 'MON-TC-B01'],
      ['b-7', 'explant', 'MON-TC-B01'],
      ['mon-tc-b01', 'explant', 'MON-TC-B01'],
    ]);
    const resolved = JSON.stringify({
      data: { record_type: 'plant', record_id: id, display_name: 'Mother' },
    });
    expect(
      labelsOf(new URL('http://lab/api/v1/labels/resolve?barcode=VT-P-0001'), resolved, 5),
    ).toEqual([
      { code: 'vt-p-0001', recordType: 'plant', recordId: id, displayName: 'Mother', savedAt: 5 },
    ]);
    const container = JSON.stringify({
      data: { record_type: 'container', record_id: id, display_name: 'Tray' },
    });
    expect(labelsOf(new URL('http://lab/api/v1/labels/resolve?barcode=T-1'), container, 5)).toEqual(
      [],
    );
    const sheet = JSON.stringify({
      data: [
        { record_type: 'plant', record_id: id, code: 'VT-P-0001', name: 'Mother' },
        { record_type: 'explant', record_id: id, code: null, name: 'None' },
      ],
    });
    expect(
      labelsOf(new URL(`http://lab/api/v1/labels/codes?plant_ids=${id}`), sheet, 5).map(
        (l) => l.code,
      ),
    ).toEqual(['vt-p-0001']);
    // Offline, a kept label answers as GET /labels/resolve does.
    const [found] = labelsOf(new URL('http://lab/api/v1/labels/codes'), sheet, 5);
    expect(JSON.parse(resolution('VT-P-0001', found!, 'http://lab'))).toEqual({
      ok: true,
      data: {
        barcode: 'VT-P-0001',
        record_type: 'plant',
        record_id: id,
        display_name: 'Mother',
        url: `http://lab/api/v1/plants/${id}`,
      },
    });
  });
});
