import { describe, expect, it } from 'vitest';
import { body, createLab } from '../support/harness.js';
import {
  client,
  dataOf,
  eventsOf,
  expectError,
  expectSameAnswer,
  ISO_MS,
  newExplant,
  newPlant,
  randomId,
  type Client,
} from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

/**
 * Archiving a plant or explant made by mistake: gone from lists unless asked for,
 * still read by id, kept in the change history; on both databases.
 */
describeOnDatabases('Archiving records', (target) => {
  const { t, lab, owner } = labSuite(target);

  const kinds = [
    { kind: 'plant', url: '/api/v1/plants', make: (c: Client) => newPlant(c) },
    { kind: 'explant', url: '/api/v1/explants', make: (c: Client) => newExplant(c) },
  ] as const;

  describe.each(kinds)('$kind', ({ kind, url, make }) => {
    it('leaves the lists unless asked for, still reads by id, and comes back', async () => {
      const kept = await make(owner);
      const mistake = await make(owner);
      const res = await owner.post(`${url}/${mistake.id}/archive`, { reason: 'Typed twice' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['idempotent-replay']).toBe('false');
      const archived = body(res).data;
      expect(archived).toEqual({
        ...mistake,
        archived_at: expect.stringMatching(ISO_MS),
        archived_by: lab.owner.memberId,
        updated_at: archived.archived_at,
      });
      const ids = async (query: string) =>
        dataOf(await owner.get(`${url}${query}`), 200).map((r: { id: string }) => r.id);
      expect(await ids('')).toEqual([kept.id]);
      expect(await ids('?archived=exclude')).toEqual([kept.id]);
      expect(await ids('?archived=only')).toEqual([mistake.id]);
      expect(await ids('?archived=include')).toEqual([mistake.id, kept.id]);
      expect(dataOf(await owner.get(`${url}/${mistake.id}`), 200)).toEqual(archived);
      // The external id lookup finds it: it is the record's identity.
      const withId = await make(owner);
      dataOf(await owner.patch(`${url}/${withId.id}`, { external_id: 'EXT-1' }), 200);
      dataOf(await owner.post(`${url}/${withId.id}/archive`, {}), 200);
      expect(await ids('?externalId=ext-1')).toEqual([withId.id]);

      // Archiving again changes nothing and records nothing.
      const again = dataOf(await owner.post(`${url}/${mistake.id}/archive`, undefined), 200);
      expect(again).toEqual(archived);
      const back = dataOf(await owner.post(`${url}/${mistake.id}/unarchive`, undefined), 200);
      expect(back).toMatchObject({ archived_at: null, archived_by: null });
      expect(await ids('')).toEqual([mistake.id, kept.id]);
      dataOf(await owner.post(`${url}/${mistake.id}/unarchive`, {}), 200);
      const history = (await eventsOf(owner, kind)).filter((e) => e.entity_id === mistake.id);
      expect(history.map((e) => e.event_type)).toEqual(['created', 'archived', 'unarchived']);
      expect(history[1]).toMatchObject({
        recorded_by: lab.owner.memberId,
        payload: { reason: 'Typed twice' },
      });
      expect(history[2]!.payload).toEqual({ reason: null });
    });

    it("needs a manager for another member's record; viewers and narrow keys are refused", async () => {
      const member = client(t, await lab.actor('member'));
      const record = await make(owner);
      const code = kind === 'plant' ? 'PLANT_WRITE_FORBIDDEN' : 'EXPLANT_WRITE_FORBIDDEN';
      expectError(await member.post(`${url}/${record.id}/archive`, {}), 403, code, /manager/);
      const viewer = client(t, await lab.actor('viewer'));
      expectError(await viewer.post(`${url}/${record.id}/archive`, {}), 403, 'FORBIDDEN');
      const narrow = client(t, await lab.actor('owner', { scopes: [`read:${kind}s`] as never }));
      expectError(
        await narrow.post(`${url}/${record.id}/archive`, {}),
        403,
        'FORBIDDEN',
        new RegExp(`write:${kind}s`),
      );
      expect(dataOf(await owner.get(`${url}/${record.id}`), 200).archived_at).toBeNull();
      const manager = client(t, await lab.actor('manager'));
      expect(
        dataOf(await manager.post(`${url}/${record.id}/archive`, {}), 200).archived_at,
      ).not.toBeNull();
      const own = await make(member);
      expect(dataOf(await member.post(`${url}/${own.id}/archive`, {}), 200).archived_at).not.toBe(
        null,
      );
    });

    it("answers an unknown id, a malformed one and another workspace's record alike (404)", async () => {
      const theirs = await make(client(t, (await createLab(t.database)).owner));
      const reference = await owner.post(`${url}/${randomId()}/archive`, {});
      expectSameAnswer(
        await owner.post(`${url}/${theirs.id}/archive`, {}),
        reference,
        404,
        'NOT_FOUND',
      );
      expectSameAnswer(await owner.post(`${url}/nope/unarchive`, {}), reference, 404, 'NOT_FOUND');
    });

    it('refuses a bad body with 422, changing nothing; replays a repeated Idempotency-Key', async () => {
      const record = await make(owner);
      for (const [sent, error] of [
        [{ reason: '' }, /^reason: /],
        [{ reason: 'r'.repeat(501) }, /^reason: must be at most 500/],
        [{ archived: true }, /unknown field "archived"/],
      ] as const) {
        expectError(
          await owner.post(`${url}/${record.id}/archive`, sent),
          422,
          'VALIDATION_ERROR',
          error,
        );
      }
      expect(dataOf(await owner.get(`${url}/${record.id}`), 200).archived_at).toBeNull();
      const headers = { 'idempotency-key': `archive-${kind}-1` };
      const first = await owner.post(`${url}/${record.id}/archive`, {}, headers);
      const replay = await owner.post(`${url}/${record.id}/archive`, {}, headers);
      expect(replay.headers['idempotent-replay']).toBe('true');
      expect(body(replay)).toEqual(body(first));
    });
  });
});
