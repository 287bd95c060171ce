import type { Routes } from '../../kernel/routes/index.js';
import { SCOPES } from '../../kernel/access.js';
import {
  AddMemberBody,
  ApiKey,
  ApiKeyCreated,
  ApiKeyParams,
  ChangeMemberBody,
  CreateApiKeyBody,
  Member,
  MemberParams,
} from './management.schemas.js';
import {
  addWorkspaceMember,
  changeMemberRole,
  createWorkspaceApiKey,
  listWorkspaceApiKeys,
  listWorkspaceMembers,
  removeWorkspaceMember,
  revokeWorkspaceApiKey,
  type MemberRemoved,
} from './management.service.js';

/**
 * Members and API keys, managed from the console by admins and owners. Console
 * sessions only: an API key gets 403 SESSION_REQUIRED, so a key that leaks from a
 * script can never mint more keys, add people or lock the lab's people out.
 */
const ADMIN = { credentials: 'session', scope: null, role: 'admin', plan: 'any' } as const;

export function registerManagementRoutes(
  routes: Routes,
  deps: { memberRemoved: MemberRemoved },
): void {
  routes.list({
    ...ADMIN,
    url: '/api/v1/members',
    operationId: 'listMembers',
    tags: ['Members'],
    summary: 'List members',
    description: "The workspace's members, removed ones too, newest first.",
    failureCode: 'MEMBER_QUERY_FAILED',
    paging: { list: 'members', csv: true },
    item: Member,
    handler: (_req, ctx) => listWorkspaceMembers(ctx.db, ctx.principal.workspaceId, ctx.page),
  });

  routes.write({
    ...ADMIN,
    method: 'POST',
    url: '/api/v1/members',
    operationId: 'addMember',
    tags: ['Members'],
    summary: 'Add a member',
    description:
      'Adds an active member; an email must not be the email of another active member ' +
      '(409 DUPLICATE_ENTRY). Only an owner may add an owner. Mint a sign-in link next.',
    failureCode: 'MEMBER_CREATE_FAILED',
    errors: ['DUPLICATE_ENTRY'],
    body: AddMemberBody,
    data: Member,
    handler: async (req, ctx) => ({
      data: await addWorkspaceMember(ctx.trx, ctx.principal, req.body),
    }),
  });

  routes.write({
    ...ADMIN,
    method: 'PATCH',
    url: '/api/v1/members/:id',
    operationId: 'changeMember',
    tags: ['Members'],
    summary: "Change a member's role",
    description:
      "The new role applies to the member's keys and sessions from their next request. Only an " +
      "owner may make an owner or change an owner's role; nobody changes their own.",
    failureCode: 'MEMBER_UPDATE_FAILED',
    params: MemberParams,
    notFound: 'Member',
    body: ChangeMemberBody,
    data: Member,
    handler: async (req, ctx) => ({
      data: await changeMemberRole(ctx.trx, ctx.principal, req.params.id, req.body.role),
    }),
  });

  routes.write({
    ...ADMIN,
    method: 'DELETE',
    url: '/api/v1/members/:id',
    operationId: 'removeMember',
    tags: ['Members'],
    summary: 'Remove a member',
    description:
      'The member stays listed as removed; their keys, sessions and unused sign-in links stop ' +
      'working from the next request. Only an owner may remove an owner; nobody removes ' +
      'themselves. Removing a removed member answers it as it is.',
    failureCode: 'MEMBER_UPDATE_FAILED',
    params: MemberParams,
    notFound: 'Member',
    data: Member,
    handler: async (req, ctx) => ({
      data: await removeWorkspaceMember(
        ctx.trx,
        ctx.principal,
        req.params.id,
        deps.memberRemoved,
        ctx.now,
      ),
    }),
  });

  routes.list({
    ...ADMIN,
    url: '/api/v1/api-keys',
    operationId: 'listApiKeys',
    tags: ['API keys'],
    summary: 'List API keys',
    description: "The workspace's keys, revoked ones too, newest first; never a secret.",
    failureCode: 'API_KEY_QUERY_FAILED',
    paging: { list: 'api-keys', csv: true },
    item: ApiKey,
    handler: (_req, ctx) => listWorkspaceApiKeys(ctx.db, ctx.principal.workspaceId, ctx.page),
  });

  routes.write({
    ...ADMIN,
    method: 'POST',
    url: '/api/v1/api-keys',
    operationId: 'createApiKey',
    tags: ['API keys'],
    summary: 'Create an API key',
    description:
      `A key that acts as \`member_id\`, with \`scopes\` (default all ${SCOPES.length}; at least ` +
      'one when sent: an empty list is 422; the member’s role narrows them on every request). The secret `key` is in this response only and is stored as a ' +
      'hash; a retry, even with the same Idempotency-Key, creates another key. Only an owner ' +
      "may create an owner's key.",
    failureCode: 'API_KEY_CREATE_FAILED',
    body: CreateApiKeyBody,
    idempotency: 'ignore',
    data: ApiKeyCreated,
    handler: async (req, ctx) => ({
      data: await createWorkspaceApiKey(ctx.trx, ctx.principal, req.body),
    }),
  });

  routes.write({
    ...ADMIN,
    method: 'DELETE',
    url: '/api/v1/api-keys/:id',
    operationId: 'revokeApiKey',
    tags: ['API keys'],
    summary: 'Revoke an API key',
    description:
      'The key answers 401 from its next request on and stays listed as revoked; revoking it ' +
      "again answers the same record. Only an owner may revoke an owner's key.",
    failureCode: 'API_KEY_REVOKE_FAILED',
    params: ApiKeyParams,
    notFound: 'API key',
    data: ApiKey,
    handler: async (req, ctx) => ({
      data: await revokeWorkspaceApiKey(ctx.trx, ctx.principal, req.params.id),
    }),
  });
}
