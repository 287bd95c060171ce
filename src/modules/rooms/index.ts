/* The rooms module's face: rooms with their summaries are served only (see rooms.routes.ts). */
export { Room } from './rooms.schemas.js';
