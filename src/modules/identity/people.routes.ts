import type { Routes } from '../../kernel/routes/index.js';
import { listPeople } from './people.service.js';
import { PeopleQuery, Person } from './people.schemas.js';

export function registerPeopleRoutes(routes: Routes): void {
  routes.list({
    url: '/api/v1/people',
    operationId: 'listPeople',
    tags: ['Account'],
    summary: 'List the people of the workspace',
    description:
      'A read-only directory any member may read: id, name, role and status of each member, by ' +
      'name, removed members too (the history still names them). It turns the member ids that ' +
      'records carry (`recorded_by`, `assigned_to`, `logged_by`, `mentioned_user_ids`, …) into ' +
      'names. No email addresses and no keys.',
    scope: 'read:workspace',
    failureCode: 'PEOPLE_QUERY_FAILED',
    querystring: PeopleQuery,
    paging: { list: 'people', defaultLimit: 200, csv: true },
    item: Person,
    handler: (req, ctx) =>
      listPeople(
        ctx.db,
        ctx.principal.workspaceId,
        req.query.status === undefined ? {} : { status: req.query.status },
        ctx.page,
      ),
  });
}
