/*
 * Authentication: an Authorization header to a principal, reading API keys from the
 * identity module and device tokens from the devices module, each through its
 * sign-in lookup. It stands above both, so neither knows the other.
 */
export { createAuthenticator, generationCache } from './authenticate.js';
