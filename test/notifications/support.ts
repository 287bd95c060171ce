import { type Client, listAll } from '../support/helpers.js';

/** Every notification of the caller's inbox, newest first. */
export const inboxOf = (c: Client, query = '') => listAll(c, `/api/v1/notifications${query}`);
