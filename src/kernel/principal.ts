import type { Environment } from './credentials.js';
import type { Feature, Plan, Role, Scope } from './access.js';

/** Who is calling: a workspace API key (with its owner) or a device token (with its device). */
export interface Principal {
  readonly kind: 'key' | 'device';
  readonly credentialId: string;
  readonly workspaceId: string;
  readonly plan: Plan;
  readonly features: readonly Feature[];
  /** The key's owner; null for a device token. */
  readonly memberId: string | null;
  readonly role: Role | null;
  /** The token's device; null for an API key. */
  readonly deviceId: string | null;
  readonly scopes: readonly Scope[];
  /** Details of the key, for GET /me; null for a device token. */
  readonly key: {
    readonly name: string;
    readonly prefix: string;
    readonly environment: Environment;
    readonly createdAt: string;
    readonly lastUsedAt: string | null;
  } | null;
}

/** Turns an Authorization header into a principal, or throws 401. */
export type Authenticator = (authorization: string | undefined) => Promise<Principal>;
