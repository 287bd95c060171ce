import { expect, it } from 'vitest';
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

/** Resolving a contamination (outcome, notes, who, when) and the open filter, on both databases. */
describeOnDatabases('Resolving contaminations', (target) => {
  const { t, lab, owner } = labSuite(target);

  const log = async (c: Client, fields: Record<string, unknown>) =>
    dataOf(
      await c.post('/api/v1/contaminations', { type: 'mold', issue: 'Fuzzy patch', ...fields }),
      201,
    );
  const resolveUrl = (id: string) => `/api/v1/contaminations/${id}/resolve`;

  it('records outcome, notes, who and when; reads back; joins the change history', async () => {
    const explant = await newExplant(owner);
    const logged = await log(owner, { explant_id: explant.id, status: 'quarantined' });
    const member = await lab.actor('member');
    const res = await client(t, member).post(resolveUrl(logged.id), {
      outcome: 'discarded',
      notes: 'All six vessels autoclaved',
    });
    expect(res.statusCode).toBe(200);
    const resolved = body(res).data;
    expect(resolved).toEqual({
      ...logged,
      status: 'resolved',
      resolved_at: expect.stringMatching(ISO_MS),
      resolution_outcome: 'discarded',
      resolution_notes: 'All six vessels autoclaved',
      resolved_by: member.memberId,
      updated_at: resolved.resolved_at,
    });
    expect(dataOf(await owner.get(`/api/v1/contaminations/${logged.id}`), 200)).toEqual(resolved);
    const event = (await eventsOf(owner, 'explant')).at(-1);
    expect(event).toMatchObject({
      entity_id: explant.id,
      event_type: 'contamination_resolved',
      recorded_by: member.memberId,
      event_time: resolved.resolved_at,
      payload: {
        contamination_id: logged.id,
        outcome: 'discarded',
        notes: 'All six vessels autoclaved',
        resolved_at: resolved.resolved_at,
        previous_status: 'quarantined',
      },
    });
  });

  it('takes resolved_at with a zone, normalised to UTC', async () => {
    const logged = await log(owner, { plant_id: (await newPlant(owner)).id });
    const resolved = dataOf(
      await owner.post(resolveUrl(logged.id), {
        outcome: 'false_alarm',
        resolved_at: '2026-03-05T10:00:00+02:00',
      }),
      200,
    );
    expect(resolved).toMatchObject({
      resolved_at: '2026-03-05T08:00:00.000Z',
      resolution_notes: null,
    });
  });

  it('answers 409 CONFLICT for a log resolved already, keeping its resolution', async () => {
    const plant = await newPlant(owner);
    const first = await log(owner, { plant_id: plant.id });
    const resolved = dataOf(await owner.post(resolveUrl(first.id), { outcome: 'treated' }), 200);
    expectError(
      await owner.post(resolveUrl(first.id), { outcome: 'other' }),
      409,
      'CONFLICT',
      /resolved already/,
    );
    const loggedResolved = await log(owner, { plant_id: plant.id, status: 'resolved' });
    expect(loggedResolved).toMatchObject({ resolved_by: lab.owner.memberId });
    expectError(
      await owner.post(resolveUrl(loggedResolved.id), { outcome: 'other' }),
      409,
      'CONFLICT',
    );
    expect(dataOf(await owner.get(`/api/v1/contaminations/${first.id}`), 200)).toEqual(resolved);
  });

  it('refuses bad bodies with 422 naming the field, changing nothing', async () => {
    const logged = await log(owner, { plant_id: (await newPlant(owner)).id });
    for (const [sent, error] of [
      [{}, /^outcome: is required/],
      [{ outcome: 'burned' }, /^outcome: must be one of/],
      [{ outcome: 'treated', notes: 'n'.repeat(5001) }, /^notes: must be at most 5000/],
      [{ outcome: 'treated', resolved_at: '2026-03-05T10:00:00' }, /^resolved_at: /],
      [{ outcome: 'treated', status: 'resolved' }, /unknown field "status"/],
    ] as const) {
      expectError(await owner.post(resolveUrl(logged.id), sent), 422, 'VALIDATION_ERROR', error);
    }
    expect(dataOf(await owner.get(`/api/v1/contaminations/${logged.id}`), 200)).toEqual(logged);
  });

  it("answers unknown, malformed and other workspaces' logs alike; viewers are refused", async () => {
    const theirs = client(t, (await createLab(t.database)).owner);
    const their = await log(theirs, { plant_id: (await newPlant(theirs)).id });
    const reference = await owner.post(resolveUrl(randomId()), { outcome: 'treated' });
    expectSameAnswer(
      await owner.post(resolveUrl(their.id), { outcome: 'treated' }),
      reference,
      404,
      'NOT_FOUND',
    );
    expectSameAnswer(
      await owner.post(resolveUrl('nope'), { outcome: 'treated' }),
      reference,
      404,
      'NOT_FOUND',
    );
    expect(dataOf(await theirs.get(`/api/v1/contaminations/${their.id}`), 200).status).toBe(
      'active',
    );
    const mine = await log(owner, { plant_id: (await newPlant(owner)).id });
    const viewer = client(t, await lab.actor('viewer'));
    expectError(await viewer.post(resolveUrl(mine.id), { outcome: 'treated' }), 403, 'FORBIDDEN');
  });

  it('lists the open logs (active, quarantined, under investigation) or the others', async () => {
    const plant = await newPlant(owner);
    const active = await log(owner, { plant_id: plant.id });
    const quarantined = await log(owner, { plant_id: plant.id, status: 'quarantined' });
    const investigated = await log(owner, { plant_id: plant.id, status: 'under investigation' });
    const archived = await log(owner, { plant_id: plant.id, status: 'archived' });
    const resolved = await log(owner, { plant_id: plant.id });
    dataOf(await owner.post(resolveUrl(resolved.id), { outcome: 'recovered' }), 200);
    const ids = async (query: string) =>
      dataOf(await owner.get(`/api/v1/contaminations?${query}`), 200).map(
        (c: { id: string }) => c.id,
      );
    expect(await ids('open=true')).toEqual([investigated.id, quarantined.id, active.id]);
    expect(await ids('open=false')).toEqual([resolved.id, archived.id]);
    expect(await ids(`open=true&plant_id=${plant.id}&status=quarantined`)).toEqual([
      quarantined.id,
    ]);
    expectError(
      await owner.get('/api/v1/contaminations?open=maybe'),
      422,
      'VALIDATION_ERROR',
      /^open: /,
    );
  });
});
