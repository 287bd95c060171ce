import type { CredentialLookup } from '../../kernel/credentials.js';
import { findKeyForAuth, touchApiKey } from './identity.repository.js';

/** An API key by its SHA-256, with its owner and workspace, and its last use: what authentication reads. */
export const apiKeySignIn: CredentialLookup<ApiKeySignInRow> = {
  find: findKeyForAuth,
  recordUse: touchApiKey,
};

export type ApiKeySignInRow = NonNullable<Awaited<ReturnType<typeof findKeyForAuth>>>;
