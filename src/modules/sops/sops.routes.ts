import type { Routes } from '../../kernel/routes/index.js';
import {
  createSop,
  createVersion,
  listVersions,
  makeVersionEffective,
  updateSop,
  updateVersion,
} from './sop-writes.service.js';
import {
  CreateSopBody,
  CreateSopVersionBody,
  Sop,
  SopParams,
  SopSummary,
  SopVersionDetail,
  SopVersionParams,
  UpdateSopBody,
  UpdateSopVersionBody,
} from './sops.schemas.js';
import { getSop, listSops } from './sops.service.js';

const VERSIONS =
  'A version is a draft until it is made effective; then it is the version in force, which new ' +
  'runs follow, and the one in force before is superseded. A run stays pinned to the version it ' +
  'started with: versions in force or superseded never change.';

export function registerSopRoutes(routes: Routes): void {
  routes.list({
    url: '/api/v1/sops',
    operationId: 'listSops',
    tags: ['SOPs'],
    summary: 'List SOPs',
    description:
      'Summaries, most recently updated first; drafts and archived SOPs included. SOPs are ' +
      'written with POST /sops and their versions, or by `vitro import`.',
    scope: 'read:sops',
    failureCode: 'SOP_QUERY_FAILED',
    paging: { list: 'sops', csv: true },
    item: SopSummary,
    handler: (_req, ctx) => listSops(ctx.db, ctx.principal.workspaceId, ctx.page),
  });

  routes.read({
    url: '/api/v1/sops/:id',
    operationId: 'getSop',
    tags: ['SOPs'],
    summary: 'Get an SOP',
    description:
      'The SOP with only the version in force and its steps (never a draft or superseded one); ' +
      '`version` is null when no version is in force.',
    scope: 'read:sops',
    failureCode: 'SOP_QUERY_FAILED',
    params: SopParams,
    notFound: 'SOP',
    data: Sop,
    handler: async (req, ctx) => ({
      data: await getSop(ctx.db, ctx.principal.workspaceId, req.params.id),
    }),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/sops',
    operationId: 'createSop',
    tags: ['SOPs'],
    summary: 'Create an SOP',
    description:
      "The import file's SOP fields (snake_case); with `steps`, the SOP starts with a draft " +
      'version 1 of them (no version is in force until one is made effective). A title another ' +
      'SOP of the lab has answers 409 DUPLICATE_ENTRY (imports match SOPs on it).',
    scope: 'write:sops',
    failureCode: 'SOP_CREATE_FAILED',
    errors: ['DUPLICATE_ENTRY'],
    body: CreateSopBody,
    data: Sop,
    handler: async (req, ctx) => ({
      data: await createSop(ctx.trx, ctx.principal.workspaceId, req.body, ctx.now),
    }),
  });

  routes.write({
    method: 'PATCH',
    url: '/api/v1/sops/:id',
    operationId: 'updateSop',
    tags: ['SOPs'],
    summary: 'Edit an SOP',
    description:
      "The SOP's own fields sent change (null clears an optional one; `status: archived` retires " +
      'it); its steps belong to its versions. A title another SOP has answers 409 DUPLICATE_ENTRY.',
    scope: 'write:sops',
    failureCode: 'SOP_UPDATE_FAILED',
    errors: ['DUPLICATE_ENTRY'],
    params: SopParams,
    notFound: 'SOP',
    body: UpdateSopBody,
    data: Sop,
    handler: async (req, ctx) => ({
      data: await updateSop(ctx.trx, ctx.principal.workspaceId, req.params.id, req.body, ctx.now),
    }),
  });

  routes.list({
    url: '/api/v1/sops/:id/versions',
    operationId: 'listSopVersions',
    tags: ['SOPs'],
    summary: "List an SOP's versions",
    description: `Every version with its steps and lifecycle, newest first. ${VERSIONS}`,
    scope: 'read:sops',
    failureCode: 'SOP_QUERY_FAILED',
    params: SopParams,
    notFound: 'SOP',
    paging: { list: 'sop-versions' },
    item: SopVersionDetail,
    handler: (req, ctx) => listVersions(ctx.db, ctx.principal.workspaceId, req.params.id, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/sops/:id/versions',
    operationId: 'createSopVersion',
    tags: ['SOPs'],
    summary: 'Start a new version of an SOP',
    description: `A draft with the steps sent, numbered after the highest version stored. ${VERSIONS}`,
    scope: 'write:sops',
    failureCode: 'SOP_UPDATE_FAILED',
    params: SopParams,
    notFound: 'SOP',
    body: CreateSopVersionBody,
    data: SopVersionDetail,
    handler: async (req, ctx) => ({
      data: await createVersion(
        ctx.trx,
        ctx.principal.workspaceId,
        req.params.id,
        req.body,
        ctx.now,
      ),
    }),
  });

  routes.write({
    method: 'PATCH',
    url: '/api/v1/sops/:id/versions/:versionId',
    operationId: 'updateSopVersion',
    tags: ['SOPs'],
    summary: 'Edit a draft version',
    description: `Only a draft changes; a version in force or superseded answers 409 CONFLICT. ${VERSIONS}`,
    scope: 'write:sops',
    failureCode: 'SOP_UPDATE_FAILED',
    errors: ['CONFLICT'],
    params: SopVersionParams,
    notFound: 'SOP version',
    body: UpdateSopVersionBody,
    data: SopVersionDetail,
    handler: async (req, ctx) => ({
      data: await updateVersion(
        ctx.trx,
        ctx.principal.workspaceId,
        req.params.id,
        req.params.versionId,
        req.body,
        ctx.now,
      ),
    }),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/sops/:id/versions/:versionId/make-effective',
    operationId: 'makeSopVersionEffective',
    tags: ['SOPs'],
    summary: 'Make a version the one in force',
    description:
      'The version (a draft, or a superseded one brought back) becomes the one in force; the one ' +
      'in force before is superseded. A version without steps answers 422. Making the version in ' +
      `force effective again changes nothing. ${VERSIONS}`,
    scope: 'write:sops',
    failureCode: 'SOP_UPDATE_FAILED',
    status: 200,
    params: SopVersionParams,
    notFound: 'SOP version',
    data: SopVersionDetail,
    handler: async (req, ctx) => ({
      data: await makeVersionEffective(
        ctx.trx,
        ctx.principal.workspaceId,
        req.params.id,
        req.params.versionId,
        ctx.now,
      ),
    }),
  });
}
