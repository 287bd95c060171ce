/*
 * The identity module's face: workspaces, members and API keys, as other modules,
 * the CLI and authentication may use them. Its routes (the workspace, the people
 * directory, managing members and keys) are wired from the module's *.routes.ts.
 */
export { apiKeySignIn, type ApiKeySignInRow } from './api-key-sign-in.js';
export {
  addMember,
  createApiKey,
  createWorkspace,
  DEFAULT_SUBCULTURE_INTERVAL_DAYS,
  getMember,
  getWorkspace,
  hasAnyWorkspace,
  isActiveMember,
  listApiKeys,
  listMembers,
  listWorkspaces,
  removeMember,
  revokeApiKey,
  setMemberRole,
  setWorkspaceFeatures,
  setWorkspacePlan,
  updateWorkspaceSettings,
  WORKSPACE_TYPES,
  type CreatedApiKey,
  type ListedApiKey,
  type MemberRow,
  type NewApiKey,
  type NewMember,
  type NewWorkspace,
  type WorkspaceRow,
} from './identity.service.js';
export { requireManageableMember } from './management.service.js';
export { listPeople } from './people.service.js';
