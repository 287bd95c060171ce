import type { Db } from '../../db/database.js';
import { workspaceTable } from '../../db/tables.js';
import type { PageRequest } from '../../db/pages.js';
import { MEMBER_COLUMNS } from './identity.repository.js';

/** Members and keys as the console lists them: one workspace's, newest first, by page. */
const members = workspaceTable('members', MEMBER_COLUMNS);

/** Never the key's hash. */
const apiKeys = workspaceTable('api_keys', [
  'id',
  'workspace_id',
  'member_id',
  'name',
  'prefix',
  'scopes',
  'environment',
  'created_at',
  'last_used_at',
  'revoked_at',
]);

export const findWorkspaceMember = (db: Db, workspaceId: string, id: string) =>
  members.find(db, workspaceId, id);

export const memberPage = (db: Db, workspaceId: string, page: PageRequest) =>
  members.newest(db, workspaceId, page);

export const findWorkspaceApiKey = (db: Db, workspaceId: string, id: string) =>
  apiKeys.find(db, workspaceId, id);

export const apiKeyPage = (db: Db, workspaceId: string, page: PageRequest) =>
  apiKeys.newest(db, workspaceId, page);
