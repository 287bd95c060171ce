import { expect, it } from 'vitest';
import { body, createLab } from '../support/harness.js';
import { appSuite, describeOnDatabases } from '../support/suite.js';

describeOnDatabases('list paging', (target) => {
  const { t } = appSuite(target);

  it('keysets through a list with limit+1, caps the page, and refuses foreign cursors', async () => {
    const lab = await createLab(t.database);
    const other = await createLab(t.database);
    for (let i = 0; i < 7; i++) {
      await t.request({
        method: 'POST',
        url: '/api/v1/plants',
        headers: lab.owner.headers,
        payload: { species: `P${i}` },
      });
    }
    const get = (url: string, headers = lab.owner.headers) =>
      t.request({ method: 'GET', url, headers });
    const seen: string[] = [];
    let url = '/api/v1/plants?limit=3';
    for (;;) {
      const page = body(await get(url));
      expect(page.meta).toHaveProperty('next_cursor');
      seen.push(...page.data.map((p: { species: string }) => p.species));
      if (page.meta.next_cursor === null) break;
      url = `/api/v1/plants?limit=3&cursor=${encodeURIComponent(page.meta.next_cursor)}`;
    }
    expect(seen).toEqual(['P6', 'P5', 'P4', 'P3', 'P2', 'P1', 'P0']);

    const firstPage = body(await get('/api/v1/plants?limit=2'));
    const cursor = encodeURIComponent(firstPage.meta.next_cursor);
    const foreignList = await get(`/api/v1/explants?limit=2&cursor=${cursor}`);
    expect(body(foreignList).code).toBe('INVALID_CURSOR');
    expect(foreignList.statusCode).toBe(422);
    const foreignWorkspace = await get(
      `/api/v1/plants?limit=2&cursor=${cursor}`,
      other.owner.headers,
    );
    expect(body(foreignWorkspace).code).toBe('INVALID_CURSOR');
    const foreignFilter = await get(`/api/v1/plants?limit=2&externalId=x&cursor=${cursor}`);
    expect(body(foreignFilter).code).toBe('INVALID_CURSOR');
    const tampered = await get(`/api/v1/plants?limit=2&cursor=${cursor}A`);
    expect(body(tampered).code).toBe('INVALID_CURSOR');

    const tooLong = await get(`/api/v1/plants?cursor=${'a'.repeat(2049)}`);
    expect(tooLong.statusCode).toBe(422);
    expect(body(tooLong).code).toBe('VALIDATION_ERROR');
    const both = await get(`/api/v1/plants?offset=1&cursor=${cursor}`);
    expect(body(both).code).toBe('VALIDATION_ERROR');
    expect(body(await get('/api/v1/plants?limit=0')).code).toBe('VALIDATION_ERROR');
    expect(body(await get('/api/v1/plants?offset=-1')).code).toBe('VALIDATION_ERROR');
    expect(body(await get('/api/v1/plants?limit=abc')).code).toBe('VALIDATION_ERROR');
    expect(body(await get('/api/v1/plants?limit=100000')).data).toHaveLength(7);
    const offset = body(await get('/api/v1/plants?limit=2&offset=5'));
    expect(offset.data.map((p: { species: string }) => p.species)).toEqual(['P1', 'P0']);
    expect(offset.meta.next_cursor).toBeNull();
  });
});
