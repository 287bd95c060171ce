import { beforeEach, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { deleteComment } from '../../src/modules/comments/comments.service.js';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite, otherLab } from '../support/suite.js';
import {
  client,
  type Client,
  dataOf,
  expectError,
  expectSameAnswer,
  ISO_MS,
  type Json,
  keysOf,
  listAll,
  markDeleted,
  newExplant,
  newPlant,
  randomId,
  tick,
} from '../support/helpers.js';
import { importSops, subcultureSop } from './sop-helpers.js';
import { newTask, removeMemberNow } from './task-helpers.js';

/** The Comment fields of resources.md; create accepts nothing the table lacks. */
const COMMENT_KEYS = [
  'author',
  'body',
  'created_at',
  'edited_at',
  'entity_id',
  'entity_type',
  'id',
  'is_pinned',
  'mentioned_user_ids',
  'parent_id',
  'references',
  'status',
  'updated_at',
];

const commentsOn = (c: Client, type: string, id: string) =>
  listAll(c, `/api/v1/comments?entity_type=${type}&entity_id=${id}`);

async function newComment(
  c: Client,
  on: { entity_type: string; entity_id: string },
  fields: Record<string, unknown> = {},
): Promise<Json> {
  return dataOf(await c.post('/api/v1/comments', { ...on, body: 'Looks clean', ...fields }), 201);
}

describeOnDatabases('Comments', (target) => {
  const { t, lab, owner } = labSuite(target, {}, { name: 'Mine' });
  const { lab: theirs, owner: them } = otherLab(t);
  let plant: Json;
  let onPlant: { entity_type: string; entity_id: string };
  beforeEach(async () => {
    plant = await newPlant(owner);
    onPlant = { entity_type: 'plant', entity_id: plant.id };
  });

  const deleteNow = (id: string) =>
    inTransaction(t.database.db, (trx) =>
      deleteComment(trx, lab.workspaceId, id, new Date().toISOString()),
    );

  /** One record of every kind a comment can be on, in this lab. */
  async function recordsOfEveryKind(): Promise<Record<string, string>> {
    const explant = await newExplant(owner, { plant_id: plant.id });
    const contamination = dataOf(
      await owner.post('/api/v1/contaminations', {
        explant_id: explant.id,
        type: 'bacteria',
        issue: 'Cloudy medium',
      }),
      201,
    );
    const task = await newTask(owner);
    const recipe = dataOf(
      await owner.post('/api/v1/media-recipes', {
        title: 'MS + BAP',
        components: [{ name: 'MS basal salts', qty: '4.4', unit: 'g/L' }],
      }),
      201,
    );
    const { ids, sop } = subcultureSop();
    await importSops(t.database, lab.workspaceId, [sop]);
    return {
      plant: plant.id,
      explant: explant.id,
      contamination: contamination.id,
      task: task.id,
      media_recipe: recipe.id,
      sop: ids.sop,
    };
  }

  describe('POST /comments', () => {
    it('adds a comment to a record of every kind, as the key owner, and reads it back', async () => {
      const ids = await recordsOfEveryKind();
      for (const [type, id] of Object.entries(ids)) {
        const res = await owner.post('/api/v1/comments', {
          entity_type: type,
          entity_id: id,
          body: `On the ${type}`,
        });
        expect(res.statusCode).toBe(201);
        expect(res.headers['idempotent-replay']).toBe('false');
        const comment = body(res).data;
        expect(keysOf(comment)).toEqual(COMMENT_KEYS);
        expect(comment).toMatchObject({
          entity_type: type,
          entity_id: id,
          parent_id: null,
          body: `On the ${type}`,
          status: 'active',
          is_pinned: false,
          author: { id: lab.owner.memberId, name: 'owner member' },
          mentioned_user_ids: [],
          references: [],
          edited_at: null,
        });
        expect(comment.created_at).toMatch(ISO_MS);
        expect(comment.updated_at).toBe(comment.created_at);
        expect(await commentsOn(owner, type, id)).toEqual([comment]);
      }
    });

    it('stores the body exactly as sent, up to 5000 characters', async () => {
      for (const text of ['  spaced  ', 'Line 1\nLine 2\t', 'Ünïcødé 🌱 & <b>', 'x'.repeat(5000)]) {
        expect((await newComment(owner, onPlant, { body: text })).body).toBe(text);
      }
      expect((await commentsOn(owner, 'plant', plant.id)).map((c: Json) => c.body)[0]).toBe(
        '  spaced  ',
      );
    });

    it('refuses a missing, empty, blank or too long body and unknown fields (422), writing nothing', async () => {
      for (const blank of [' ', '   ', '\n\t \n', '\u00a0']) {
        const refused = await owner.post('/api/v1/comments', { ...onPlant, body: blank });
        expectError(refused, 422, 'VALIDATION_ERROR');
        expect(body(refused).error).toBe('body: must not be blank');
      }
      for (const sent of [
        { ...onPlant },
        { ...onPlant, body: '' },
        { ...onPlant, body: 'x'.repeat(5001) },
        { ...onPlant, body: 'ok', is_pinned: true },
        { ...onPlant, body: 'ok', entity_type: 'comment' },
        { entity_type: 'plant', body: 'ok' },
        { ...onPlant, body: 'nul \u0000 here' },
      ]) {
        expectError(await owner.post('/api/v1/comments', sent), 422, 'VALIDATION_ERROR');
      }
      expect(await commentsOn(owner, 'plant', plant.id)).toEqual([]);
    });

    it('answers a record of another workspace exactly as an unknown id (404), on every kind', async () => {
      const mine = await recordsOfEveryKind();
      const theirPlant = await newPlant(them);
      const theirTask = await newTask(them);
      const theirs2: Record<string, string> = { plant: theirPlant.id, task: theirTask.id };
      for (const [type, id] of Object.entries(theirs2)) {
        expectSameAnswer(
          await owner.post('/api/v1/comments', { entity_type: type, entity_id: id, body: 'x' }),
          await owner.post('/api/v1/comments', {
            entity_type: type,
            entity_id: randomId(),
            body: 'x',
          }),
          404,
          'NOT_FOUND',
        );
      }
      // A record of one kind named as another kind is not there either.
      expectSameAnswer(
        await owner.post('/api/v1/comments', {
          entity_type: 'explant',
          entity_id: mine.plant,
          body: 'x',
        }),
        await owner.post('/api/v1/comments', {
          entity_type: 'explant',
          entity_id: randomId(),
          body: 'x',
        }),
        404,
        'NOT_FOUND',
      );
      expect(await commentsOn(them, 'plant', theirPlant.id)).toEqual([]);
    });

    it('answers a deleted plant as an unknown id (404), for writing and for listing', async () => {
      await newComment(owner, onPlant);
      await markDeleted(t.database, 'plants', plant.id);
      const unknown = randomId();
      expectSameAnswer(
        await owner.post('/api/v1/comments', { ...onPlant, body: 'x' }),
        await owner.post('/api/v1/comments', {
          entity_type: 'plant',
          entity_id: unknown,
          body: 'x',
        }),
        404,
        'NOT_FOUND',
      );
      expectSameAnswer(
        await owner.get(`/api/v1/comments?entity_type=plant&entity_id=${plant.id}`),
        await owner.get(`/api/v1/comments?entity_type=plant&entity_id=${unknown}`),
        404,
        'NOT_FOUND',
      );
    });

    it('answers another member’s private media recipe as an unknown id (404)', async () => {
      const colleague = client(t, await lab.actor('member'));
      const recipe = dataOf(
        await colleague.post('/api/v1/media-recipes', {
          title: 'Private mix',
          components: [{ name: 'Sucrose', qty: '30', unit: 'g/L' }],
        }),
        201,
      );
      expect(recipe.visibility).toBe('private');
      expectSameAnswer(
        await owner.post('/api/v1/comments', {
          entity_type: 'media_recipe',
          entity_id: recipe.id,
          body: 'x',
        }),
        await owner.post('/api/v1/comments', {
          entity_type: 'media_recipe',
          entity_id: randomId(),
          body: 'x',
        }),
        404,
        'NOT_FOUND',
      );
      await newComment(colleague, { entity_type: 'media_recipe', entity_id: recipe.id });
    });

    it('replies to a comment on the same record, also to a reply', async () => {
      const first = await newComment(owner, onPlant, { body: 'Browning at the base?' });
      const reply = await newComment(owner, onPlant, {
        body: 'Yes, since Monday',
        parent_id: first.id,
      });
      const deeper = await newComment(owner, onPlant, { body: 'Move it', parent_id: reply.id });
      expect(reply.parent_id).toBe(first.id);
      expect(deeper.parent_id).toBe(reply.id);
      expect(await commentsOn(owner, 'plant', plant.id)).toEqual([first, reply, deeper]);
    });

    it('refuses a reply to a comment of another record or another workspace exactly as an unknown id (404)', async () => {
      const other = await newPlant(owner, { species: 'Alocasia' });
      const elsewhere = await newComment(owner, { entity_type: 'plant', entity_id: other.id });
      const theirPlant = await newPlant(them);
      const theirComment = await newComment(them, {
        entity_type: 'plant',
        entity_id: theirPlant.id,
      });
      const explant = await newExplant(owner, { plant_id: plant.id });
      const onExplant = await newComment(owner, { entity_type: 'explant', entity_id: explant.id });
      for (const parent of [elsewhere.id, theirComment.id, onExplant.id]) {
        expectSameAnswer(
          await owner.post('/api/v1/comments', { ...onPlant, body: 'x', parent_id: parent }),
          await owner.post('/api/v1/comments', { ...onPlant, body: 'x', parent_id: randomId() }),
          404,
          'NOT_FOUND',
        );
      }
      expect(await commentsOn(owner, 'plant', plant.id)).toEqual([]);
      expect(await commentsOn(them, 'plant', theirPlant.id)).toEqual([theirComment]);
    });

    it('refuses a reply to a deleted comment as an unknown id (404)', async () => {
      const gone = await newComment(owner, onPlant);
      await deleteNow(gone.id);
      expectSameAnswer(
        await owner.post('/api/v1/comments', { ...onPlant, body: 'x', parent_id: gone.id }),
        await owner.post('/api/v1/comments', { ...onPlant, body: 'x', parent_id: randomId() }),
        404,
        'NOT_FOUND',
      );
    });

    it('mentions active members of any role, in the order sent', async () => {
      const guest = await lab.actor('guest');
      const manager = await lab.actor('manager');
      const mentioned = [manager.memberId, guest.memberId, lab.owner.memberId];
      const comment = await newComment(owner, onPlant, {
        body: '@Luis @guest please check',
        mentioned_user_ids: mentioned,
      });
      expect(comment.mentioned_user_ids).toEqual(mentioned);
      expect(await commentsOn(owner, 'plant', plant.id)).toEqual([comment]);
    });

    it('refuses a mention of a removed member or another workspace’s member exactly as an unknown id (422)', async () => {
      const leaver = await lab.actor('member');
      await removeMemberNow(t.database, leaver.memberId);
      for (const memberId of [leaver.memberId, theirs.owner.memberId]) {
        expectSameAnswer(
          await owner.post('/api/v1/comments', {
            ...onPlant,
            body: 'x',
            mentioned_user_ids: [lab.owner.memberId, memberId],
          }),
          await owner.post('/api/v1/comments', {
            ...onPlant,
            body: 'x',
            mentioned_user_ids: [lab.owner.memberId, randomId()],
          }),
          422,
          'VALIDATION_ERROR',
        );
      }
      expectError(
        await owner.post('/api/v1/comments', {
          ...onPlant,
          body: 'x',
          mentioned_user_ids: [randomId()],
        }),
        422,
        'VALIDATION_ERROR',
        /^mentioned_user_ids\[0\]:/,
      );
      expect(await commentsOn(owner, 'plant', plant.id)).toEqual([]);
    });

    it('takes up to 25 mentions, each once', async () => {
      const members = [lab.owner.memberId];
      while (members.length < 26) members.push((await lab.actor('viewer')).memberId);
      expectError(
        await owner.post('/api/v1/comments', {
          ...onPlant,
          body: 'x',
          mentioned_user_ids: members,
        }),
        422,
        'VALIDATION_ERROR',
      );
      expectError(
        await owner.post('/api/v1/comments', {
          ...onPlant,
          body: 'x',
          mentioned_user_ids: [members[1], members[1]],
        }),
        422,
        'VALIDATION_ERROR',
      );
      const comment = await newComment(owner, onPlant, {
        mentioned_user_ids: members.slice(0, 25),
      });
      expect(comment.mentioned_user_ids).toHaveLength(25);
    });

    it('references records of the workspace of every kind, with free labels', async () => {
      const ids = await recordsOfEveryKind();
      const references = Object.entries(ids).map(([type, id]) => ({
        entity_type: type,
        entity_id: id,
        label: `MON-TC B01 - ${type} note`,
      }));
      const comment = await newComment(owner, onPlant, { references });
      expect(comment.references).toEqual(references);
      expect(await commentsOn(owner, 'plant', plant.id)).toEqual([comment]);
    });

    it('refuses a reference to another workspace’s record exactly as an unknown id (422)', async () => {
      const theirPlant = await newPlant(them);
      const explant = await newExplant(owner, { plant_id: plant.id });
      const ref = (type: string, id: string) => ({
        ...onPlant,
        body: 'x',
        references: [
          { entity_type: 'explant', entity_id: explant.id, label: 'ok' },
          { entity_type: type, entity_id: id, label: 'that one' },
        ],
      });
      expectSameAnswer(
        await owner.post('/api/v1/comments', ref('plant', theirPlant.id)),
        await owner.post('/api/v1/comments', ref('plant', randomId())),
        422,
        'VALIDATION_ERROR',
      );
      // The right id under the wrong kind names nothing.
      expectSameAnswer(
        await owner.post('/api/v1/comments', ref('task', plant.id)),
        await owner.post('/api/v1/comments', ref('task', randomId())),
        422,
        'VALIDATION_ERROR',
      );
      expectError(
        await owner.post('/api/v1/comments', ref('plant', randomId())),
        422,
        'VALIDATION_ERROR',
        /^references\[1\]\.entity_id:/,
      );
      expect(await commentsOn(owner, 'plant', plant.id)).toEqual([]);
    });

    it('bounds references: 1 to 200 characters of label, at most 25, no other fields', async () => {
      const one = { entity_type: 'plant', entity_id: plant.id, label: 'x' };
      for (const references of [
        [{ ...one, label: '' }],
        [{ ...one, label: 'x'.repeat(201) }],
        [{ entity_type: 'plant', entity_id: plant.id }],
        [{ ...one, note: 'extra' }],
        Array.from({ length: 26 }, () => one),
      ]) {
        expectError(
          await owner.post('/api/v1/comments', { ...onPlant, body: 'x', references }),
          422,
          'VALIDATION_ERROR',
        );
      }
      const comment = await newComment(owner, onPlant, {
        references: Array.from({ length: 25 }, () => ({ ...one, label: 'y'.repeat(200) })),
      });
      expect(comment.references).toHaveLength(25);
    });

    it('needs a member: viewers and guests are refused (403) and nothing is written', async () => {
      for (const role of ['viewer', 'guest'] as const) {
        const res = await client(t, await lab.actor(role)).post('/api/v1/comments', {
          ...onPlant,
          body: 'x',
        });
        expectError(res, 403, 'FORBIDDEN', /member/);
      }
      const member = client(t, await lab.actor('member'));
      const comment = await newComment(member, onPlant);
      expect(comment.author.name).toBe('member member');
      expect(await commentsOn(owner, 'plant', plant.id)).toEqual([comment]);
    });

    it('needs write:comments, a workspace key and the full API', async () => {
      const reader = client(t, await lab.actor('owner', { scopes: ['read:comments'] }));
      expectError(
        await reader.post('/api/v1/comments', { ...onPlant, body: 'x' }),
        403,
        'FORBIDDEN',
        /write:comments/,
      );
      const device = await lab.deviceToken();
      expectError(
        await client(t, device).post('/api/v1/comments', { ...onPlant, body: 'x' }),
        403,
        'DEVICE_TOKEN_NOT_ACCEPTED',
      );
      const hobby = await createLab(t.database, { plan: 'hobby' });
      expectError(
        await client(t, hobby.owner).post('/api/v1/comments', { ...onPlant, body: 'x' }),
        402,
        'PAID_PLAN_REQUIRED',
      );
      expect(await commentsOn(owner, 'plant', plant.id)).toEqual([]);
    });

    it('replays the first response for a repeated Idempotency-Key and writes once', async () => {
      const sent = { ...onPlant, body: 'Once', mentioned_user_ids: [lab.owner.memberId] };
      const headers = { 'idempotency-key': 'comment-once-0001' };
      const first = await owner.post('/api/v1/comments', sent, headers);
      const again = await owner.post('/api/v1/comments', sent, headers);
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replay']).toBe('true');
      expect(body(again)).toEqual(body(first));
      expect(await commentsOn(owner, 'plant', plant.id)).toEqual([body(first).data]);
      expectError(
        await owner.post('/api/v1/comments', { ...sent, body: 'Other' }, headers),
        422,
        'VALIDATION_ERROR',
      );
    });

    it('keeps the author’s name after the author leaves the lab', async () => {
      const leaver = await lab.actor('member');
      const comment = await newComment(client(t, leaver), onPlant);
      await removeMemberNow(t.database, leaver.memberId);
      const [listed] = await commentsOn(owner, 'plant', plant.id);
      expect(listed.author).toEqual({ id: leaver.memberId, name: 'member member' });
      expect(listed).toEqual(comment);
    });
  });

  describe('GET /comments', () => {
    it('lists one record’s comments oldest first, replies and deleted ones in their slots', async () => {
      const other = await newPlant(owner, { species: 'Alocasia' });
      const first = await newComment(owner, onPlant, {
        body: 'Browning',
        mentioned_user_ids: [lab.owner.memberId],
        references: [{ entity_type: 'plant', entity_id: other.id, label: 'Alocasia mother' }],
      });
      await tick();
      await newComment(owner, { entity_type: 'plant', entity_id: other.id });
      const reply = await newComment(owner, onPlant, { body: 'Agreed', parent_id: first.id });
      await tick();
      const last = await newComment(owner, onPlant, { body: 'Moved to room B' });
      await deleteNow(first.id);
      const listed = await commentsOn(owner, 'plant', plant.id);
      expect(listed.map((c: Json) => c.id)).toEqual([first.id, reply.id, last.id]);
      expect(listed[0]).toEqual({
        ...first,
        body: '',
        status: 'deleted',
        mentioned_user_ids: [],
        references: [],
        updated_at: listed[0].updated_at,
      });
      expect(listed[0].updated_at >= first.updated_at).toBe(true);
      expect(listed[1]).toEqual(reply);
      expect(listed[2]).toEqual(last);
      // The text is gone from storage too, not only from the answer.
      const stored = await t.database.db
        .selectFrom('comments')
        .select(['body', 'mentioned_user_ids', 'entity_references'])
        .where('id', '=', first.id)
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({ body: '', mentioned_user_ids: '[]', entity_references: '[]' });
    });

    it('pages by cursor and by offset in the same order; next_cursor is always present', async () => {
      const made: Json[] = [];
      for (let i = 0; i < 7; i++) made.push(await newComment(owner, onPlant, { body: `#${i}` }));
      const url = `/api/v1/comments?entity_type=plant&entity_id=${plant.id}`;
      expect(await listAll(owner, url, 3)).toEqual(made);
      const page = await owner.get(`${url}&limit=3&offset=5`);
      expect(dataOf(page, 200)).toEqual(made.slice(5));
      expect(body(page).meta).toEqual({ next_cursor: null });
      const firstPage = await owner.get(`${url}&limit=3`);
      const cursor: string = body(firstPage).meta.next_cursor;
      expect(typeof cursor).toBe('string');
      expect(
        dataOf(await owner.get(`${url}&limit=3&cursor=${encodeURIComponent(cursor)}`), 200),
      ).toEqual(made.slice(3, 6));
      // A cursor belongs to its record's list.
      const other = await newPlant(owner, { species: 'Alocasia' });
      expectError(
        await owner.get(
          `/api/v1/comments?entity_type=plant&entity_id=${other.id}&limit=3&cursor=${encodeURIComponent(cursor)}`,
        ),
        422,
        'INVALID_CURSOR',
      );
      expectError(
        await owner.get(`${url}&offset=1&cursor=${encodeURIComponent(cursor)}`),
        422,
        'VALIDATION_ERROR',
      );
      const empty = await owner.get(`/api/v1/comments?entity_type=plant&entity_id=${other.id}`);
      expect(body(empty)).toMatchObject({ ok: true, data: [], meta: { next_cursor: null } });
    });

    it('needs entity_type and entity_id (422)', async () => {
      for (const query of [
        `entity_type=plant`,
        `entity_id=${plant.id}`,
        `entity_type=comment&entity_id=${plant.id}`,
        `entity_type=plant&entity_id=not-a-uuid`,
        `entity_type=plant&entity_id=${plant.id}&limit=0`,
      ]) {
        expectError(await owner.get(`/api/v1/comments?${query}`), 422, 'VALIDATION_ERROR');
      }
    });

    it('answers another workspace’s record exactly as an unknown id (404)', async () => {
      const theirPlant = await newPlant(them);
      await newComment(them, { entity_type: 'plant', entity_id: theirPlant.id });
      expectSameAnswer(
        await owner.get(`/api/v1/comments?entity_type=plant&entity_id=${theirPlant.id}`),
        await owner.get(`/api/v1/comments?entity_type=plant&entity_id=${randomId()}`),
        404,
        'NOT_FOUND',
      );
    });

    it('is open to every role with read:comments, and only with it', async () => {
      const comment = await newComment(owner, onPlant);
      const guest = client(t, await lab.actor('guest'));
      expect(await commentsOn(guest, 'plant', plant.id)).toEqual([comment]);
      const noScope = client(t, await lab.actor('owner', { scopes: ['read:plants'] }));
      expectError(
        await noScope.get(`/api/v1/comments?entity_type=plant&entity_id=${plant.id}`),
        403,
        'FORBIDDEN',
        /read:comments/,
      );
    });
  });
});
