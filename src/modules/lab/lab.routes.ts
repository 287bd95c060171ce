import type { Routes } from '../../kernel/routes/index.js';
import { customFieldLists, updateCustomFields } from './custom-fields.service.js';
import { CustomFieldLists, UpdateCustomFieldsBody } from './lab.schemas.js';

export function registerLabRoutes(routes: Routes): void {
  routes.read({
    url: '/api/v1/custom-fields',
    operationId: 'getCustomFields',
    tags: ['Account'],
    summary: "Get the lab's custom fields",
    description:
      'The custom fields the lab defines for plants, explants, transfers and contaminations ' +
      "(the keys a record's `custom_fields` may hold), each kind in order. Any member may read them.",
    scope: 'read:workspace',
    failureCode: 'CUSTOM_FIELD_QUERY_FAILED',
    data: CustomFieldLists,
    handler: async (_req, ctx) => ({
      data: await customFieldLists(ctx.db, ctx.principal.workspaceId),
    }),
  });

  routes.write({
    method: 'PATCH',
    url: '/api/v1/custom-fields',
    operationId: 'updateCustomFields',
    tags: ['Account'],
    summary: "Change the lab's custom fields",
    description:
      'Each kind sent (`plant`, `explant`, `transfer`, `contamination`) has its definitions ' +
      'replaced by the list sent, in order (`[]` removes them); kinds not sent keep theirs. The ' +
      "import file's `custom_fields` rules: a key once per kind, `options` for a select field " +
      'and only for it. Values records hold already are kept; values written from now on are ' +
      'checked against the new definitions.',
    scope: 'write:workspace',
    failureCode: 'CUSTOM_FIELD_UPDATE_FAILED',
    body: UpdateCustomFieldsBody,
    data: CustomFieldLists,
    handler: async (req, ctx) => ({
      data: await updateCustomFields(ctx.trx, ctx.principal.workspaceId, req.body),
    }),
  });
}
