import type { Environment } from './credentials.js';
import type { Feature, Plan, Role, Scope } from './access.js';

/**
 * Who is calling: a workspace API key (with its owner), a device token (with its
 * device), a person signed in to the console (a session, acting as its member with
 * every scope the role allows), or a sign-in link being exchanged for a session.
 */
export interface Principal {
  readonly kind: 'key' | 'device' | 'session' | 'sign-in-link';
  readonly credentialId: string;
  readonly workspaceId: string;
  readonly plan: Plan;
  readonly features: readonly Feature[];
  /** The member acting (the key's owner, the signed-in person); null for a device token. */
  readonly memberId: string | null;
  readonly role: Role | null;
  /** The token's device; null for an API key. */
  readonly deviceId: string | null;
  readonly scopes: readonly Scope[];
  /** Details of the key (a session describes itself here), for GET /me; null for a device token. */
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

/**
 * What the kernel asks of the console's sign-in: the member a session cookie acts
 * as, and the member a sign-in link names; both throw 401 when unknown, ended,
 * used or expired.
 */
export interface SessionAuthenticator {
  /** The cookie that carries a session. */
  readonly cookieName: string;
  session(token: string): Promise<Principal>;
  signInLink(secret: string): Promise<Principal>;
}
