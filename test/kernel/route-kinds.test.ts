import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import type { Routes } from '../../src/kernel/routes/index.js';
import { createPlant } from '../../src/modules/plants/plants.service.js';

/**
 * The kinds of route keep transactions where they belong, checked by the compiler
 * (`npm run typecheck` compiles this file): every `@ts-expect-error` below must
 * stay an error, or the type-check fails.
 */
function declarations(routes: Routes): void {
  const Body = Type.Object({ species: Type.String() });
  routes.write({
    method: 'POST',
    url: '/api/v1/test/kinds-write',
    operationId: 'testKindsWrite',
    tags: ['Plants'],
    summary: 'a write has its transaction and no bare database',
    scope: 'write:plants',
    failureCode: 'PLANT_CREATE_FAILED',
    body: Body,
    data: Type.Object({ id: Type.String() }),
    handler: async (req, ctx) => {
      // @ts-expect-error a write handler has no bare database
      void ctx.db;
      const { plant } = await createPlant(ctx.trx, ctx.principal, req.body, ctx.now);
      return { data: { id: plant.id } };
    },
  });
  routes.prepareAndWrite({
    method: 'POST',
    url: '/api/v1/test/kinds-prepared',
    operationId: 'testKindsPrepared',
    tags: ['Plants'],
    summary: 'the prepare step has no transaction',
    scope: 'write:plants',
    failureCode: 'PLANT_CREATE_FAILED',
    body: Body,
    data: Type.Object({ id: Type.String() }),
    prepare: async (req, ctx) => {
      // @ts-expect-error the prepare step runs outside any transaction
      void ctx.trx;
      // @ts-expect-error a write service cannot be handed the bare database
      await createPlant(ctx.db, ctx.principal, req.body, ctx.now);
      return req.body.species;
    },
    write: async (_req, ctx, species) => {
      const { plant } = await createPlant(ctx.trx, ctx.principal, { species }, ctx.now);
      return { data: { id: plant.id } };
    },
  });
  routes.list({
    url: '/api/v1/test/kinds-list',
    operationId: 'testKindsList',
    tags: ['Plants'],
    summary: 'a list returns a page, not an envelope',
    scope: 'read:plants',
    failureCode: 'PLANT_QUERY_FAILED',
    paging: { list: 'kinds' },
    item: Type.Object({ id: Type.String() }),
    // @ts-expect-error a list handler returns {items, nextKey}; the kernel adds the cursor
    handler: async () => ({ data: [] }),
  });
}

describe('route kinds', () => {
  it('are declared with the handler types above (checked by the compiler)', () => {
    expect(typeof declarations).toBe('function');
  });
});
