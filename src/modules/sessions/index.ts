/** Console sign-in: personal sign-in links and sessions. What other code may use. */
export { createSessionAuthenticator } from './sessions.authenticate.js';
export { registerSessionRoutes } from './sessions.routes.js';
export {
  mintSignInLinkForMember,
  purgeFinishedSessions,
  revokeSignInLinksOfMember,
  signInUrl,
  signOutMember,
  signOutRemovedMember,
} from './sessions.service.js';
export { sessionCookieName } from './cookie.js';
