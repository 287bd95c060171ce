/* The people module's face: the member directory is served only (see people.routes.ts). */
export { Person } from './people.schemas.js';
