import { expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { importLabData } from '../../src/modules/import/import.service.js';
import { createRecordLookup } from '../../src/modules/index.js';
import { statementsOf } from '../support/statements.js';
import { createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  client,
  dataOf,
  expectError,
  expectSameAnswer,
  newExplant,
  newPlant,
  type Client,
  type Json,
} from '../support/helpers.js';

describeOnDatabases('Label codes', (target) => {
  const { t, lab, owner } = labSuite(target);

  const codes = (c: Client, query: string) => c.get(`/api/v1/labels/codes?${query}`);
  const resolve = (c: Client, barcode: string) =>
    c.get(`/api/v1/labels/resolve?barcode=${encodeURIComponent(barcode)}`);

  it('gives each explant the first code that resolves back to it, in the order asked', async () => {
    const labelled = await newExplant(owner, { label: 'Jar 1', batch_number: 'B-7' });
    const own = await newExplant(owner, { label: 'Jar 2', external_id: 'EX-2' });
    // Two jars of one batch: the batch number names one of them only, so each gets its label.
    const batchA = await newExplant(owner, { label: 'Jar 3', batch_number: 'B-7' });
    const batchB = await newExplant(owner, { label: 'Jar 4', batch_number: 'B-7' });
    // Two jars labelled alike: the label names the newest, the older one gets its id.
    const twinOld = await newExplant(owner, { label: 'Twin' });
    const twinNew = await newExplant(owner, { label: 'Twin' });
    await inTransaction(t.database.db, (trx) =>
      importLabData(
        trx,
        lab.workspaceId,
        {
          labels: [
            {
              barcode: 'VT-E-1',
              record_type: 'explant',
              record_id: labelled.id,
              display_name: 'x',
            },
          ],
        },
        createRecordLookup(),
      ),
    );
    dataOf(
      await owner.post('/api/v1/stages', { explant_id: own.id, stage: 'multiplication' }),
      201,
    );
    const ordered = [own, labelled, batchA, batchB, twinOld, twinNew];
    const answer = dataOf(
      await codes(owner, `explant_ids=${ordered.map((e: Json) => e.id).join(',')}`),
      200,
    );
    expect(answer.map((c: Json) => [c.record_id, c.code, c.source])).toEqual([
      [own.id, 'EX-2', 'identifier'],
      [labelled.id, 'VT-E-1', 'label'],
      [batchA.id, 'Jar 3', 'identifier'],
      [batchB.id, 'Jar 4', 'identifier'],
      [twinOld.id, twinOld.id, 'id'],
      [twinNew.id, 'Twin', 'identifier'],
    ]);
    expect(answer[0]).toEqual({
      record_type: 'explant',
      record_id: own.id,
      code: 'EX-2',
      source: 'identifier',
      name: 'Jar 2',
      stage: 'Multiplication',
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    // What a scanner reads resolves to the record the label is on.
    for (const label of answer) {
      const found = dataOf(await resolve(owner, label.code), 200);
      expect([found.record_type, found.record_id]).toEqual(['explant', label.record_id]);
    }
  });

  it('gives a plant its external id, else its id, which resolving takes in any case', async () => {
    const named = await newPlant(owner, { species: 'Ficus lyrata', external_id: 'FL-9' });
    const bare = await newPlant(owner, { species: 'Alocasia zebrina', common_name: 'Zebra' });
    // A plant starts in its first stage: the label says which, and since when.
    expect(bare.current_stage.name).toEqual(expect.any(String));
    const answer = dataOf(await codes(owner, `plant_ids=${named.id},${bare.id}`), 200);
    expect(answer).toEqual([
      {
        record_type: 'plant',
        record_id: named.id,
        code: 'FL-9',
        source: 'identifier',
        name: 'Ficus lyrata',
        stage: named.current_stage.name,
        date: named.current_stage.entered_on.slice(0, 10),
      },
      {
        record_type: 'plant',
        record_id: bare.id,
        code: bare.id,
        source: 'id',
        name: 'Zebra',
        stage: bare.current_stage.name,
        date: bare.current_stage.entered_on.slice(0, 10),
      },
    ]);
    expect(dataOf(await resolve(owner, bare.id.toUpperCase()), 200)).toMatchObject({
      record_type: 'plant',
      record_id: bare.id,
      display_name: 'Zebra',
    });
  });

  it('names no label for no list; refuses both lists, a malformed one and an unknown id; another lab is unknown', async () => {
    const plant = await newPlant(owner);
    const explant = await newExplant(owner);
    expect(dataOf(await codes(owner, ''), 200)).toEqual([]);
    expectError(
      await codes(owner, `plant_ids=${plant.id}&explant_ids=${explant.id}`),
      422,
      'VALIDATION_ERROR',
    );
    expectError(await codes(owner, 'plant_ids=abc'), 422, 'VALIDATION_ERROR');
    expectError(await codes(owner, `plant_ids=${'-'.repeat(36)}`), 422, 'VALIDATION_ERROR');
    const tooMany = Array.from({ length: 241 }, () => plant.id).join(',');
    expectError(await codes(owner, `plant_ids=${tooMany}`), 422, 'VALIDATION_ERROR');
    // A plant id in the explant list names no explant.
    expectError(await codes(owner, `explant_ids=${plant.id}`), 404, 'NOT_FOUND');

    const other = await createLab(t.database);
    const theirs = await newPlant(client(t, other.owner), { species: 'Theirs' });
    expectSameAnswer(
      await codes(owner, `plant_ids=${theirs.id}`),
      await codes(owner, `plant_ids=${'0'.repeat(8)}-0000-7000-8000-${'0'.repeat(12)}`),
      404,
      'NOT_FOUND',
    );
    expectSameAnswer(
      await resolve(owner, theirs.id),
      await resolve(owner, 'UNKNOWN'),
      404,
      'NOT_FOUND',
    );
  });

  it('resolves codes that collide within one sheet as a scanner would, each record alone', async () => {
    // An external id outranks a label in any case; a batch number a label; a plant an explant.
    const byExternal = await newExplant(owner, { label: 'Jar A', external_id: 'X-1' });
    const shadowed = await newExplant(owner, { label: 'x-1' });
    const byBatch = await newExplant(owner, { label: 'Jar C', batch_number: 'lot-9' });
    const underBatch = await newExplant(owner, { label: 'LOT-9' });
    const plant = await newPlant(owner, { species: 'Musa', external_id: 'Jar D' });
    const underPlant = await newExplant(owner, { label: 'jar d' });
    const sheet = [byExternal, shadowed, byBatch, underBatch, underPlant];
    const together = dataOf(
      await codes(owner, `explant_ids=${sheet.map((e: Json) => e.id).join(',')}`),
      200,
    );
    expect(together.map((c: Json) => [c.record_id, c.code, c.source])).toEqual([
      [byExternal.id, 'X-1', 'identifier'],
      [shadowed.id, shadowed.id, 'id'],
      [byBatch.id, 'Jar C', 'identifier'],
      [underBatch.id, underBatch.id, 'id'],
      [underPlant.id, underPlant.id, 'id'],
    ]);
    // The same answer record by record, and every code resolves to its record.
    for (const [index, explant] of sheet.entries()) {
      expect(dataOf(await codes(owner, `explant_ids=${explant.id}`), 200)).toEqual([
        together[index],
      ]);
      const found = dataOf(await resolve(owner, together[index].code), 200);
      expect([found.record_type, found.record_id]).toEqual(['explant', explant.id]);
    }
    expect(dataOf(await resolve(owner, 'JAR D'), 200)).toMatchObject({
      record_type: 'plant',
      record_id: plant.id,
    });
  });

  it('asks the database the same few statements for a sheet of 30 labels as for 3', async () => {
    const explants: Json[] = [];
    for (let i = 0; i < 30; i += 1) {
      explants.push(await newExplant(owner, { label: `Jar ${i}`, batch_number: `B-${i % 3}` }));
    }
    const sheetOf = async (some: Json[]) => {
      const query = `explant_ids=${some.map((e) => e.id).join(',')}`;
      dataOf(await codes(owner, query), 200); // warm: the key row and prepared statements
      let answer: Json[] = [];
      const statements = await statementsOf(target.name, async () => {
        answer = dataOf(await codes(owner, query), 200);
      });
      expect(answer).toHaveLength(some.length);
      return statements.length;
    };
    const few = await sheetOf(explants.slice(0, 3));
    const many = await sheetOf(explants);
    expect(many).toBe(few);
    expect(many).toBeLessThan(20);
  });
});
