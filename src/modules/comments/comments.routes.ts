import type { Routes } from '../../kernel/routes/index.js';
import { Comment, CommentQuery, CreateCommentBody } from './comments.schemas.js';
import { createComment, listComments, type CommentRecords } from './comments.service.js';

export function registerCommentRoutes(routes: Routes, deps: { records: CommentRecords }): void {
  routes.list({
    url: '/api/v1/comments',
    operationId: 'listComments',
    tags: ['Comments'],
    summary: 'List comments',
    description:
      'The comments on one record (`entity_type` + `entity_id`, a record of the workspace, else ' +
      '404), oldest first. Replies carry `parent_id`; a deleted comment keeps its slot with its ' +
      'text, mentions and references removed (`status` deleted).',
    scope: 'read:comments',
    failureCode: 'COMMENT_QUERY_FAILED',
    errors: ['NOT_FOUND'],
    querystring: CommentQuery,
    paging: { list: 'comments' },
    item: Comment,
    handler: (req, ctx) => listComments(ctx.db, ctx.principal, req.query, deps.records, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/comments',
    operationId: 'createComment',
    tags: ['Comments'],
    summary: 'Add a comment',
    description:
      'Written as the key owner on a record of the workspace (404 when there is none). ' +
      '`parent_id` makes it a reply: it must name a comment, not deleted, on the same record ' +
      '(404). `mentioned_user_ids` must be active members and `references` records of the ' +
      'workspace (422). The body is stored as sent. Task discussions are never locked in Vitro, ' +
      'so 409 CONFLICT is not sent.',
    scope: 'write:comments',
    failureCode: 'COMMENT_CREATE_FAILED',
    errors: ['NOT_FOUND', 'CONFLICT'],
    body: CreateCommentBody,
    data: Comment,
    handler: async (req, ctx) => ({
      data: await createComment(ctx.trx, ctx.principal, req.body, deps.records, ctx.now),
    }),
  });
}
