import Type from 'typebox';
import type { RecordKind } from '../../kernel/record-lookup.js';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

/** The kinds of record a comment is on, or names in its references. */
export const COMMENT_ENTITY_TYPES = [
  'plant',
  'explant',
  'contamination',
  'task',
  'media_recipe',
  'sop',
] as const satisfies readonly RecordKind[];

export const COMMENT_STATUSES = ['active', 'edited', 'deleted'] as const;

export const BODY_MAX = 5000;
export const LABEL_MAX = 200;
export const MENTIONS_MAX = 25;
export const REFERENCES_MAX = 25;

const entityType = () =>
  StringEnum(COMMENT_ENTITY_TYPES, { description: COMMENT_ENTITY_TYPES.join(', ') });

export const CommentReference = Type.Object({
  entity_type: entityType(),
  entity_id: Uuid(),
  label: Type.String(),
});

export const Comment = Type.Object(
  {
    id: Uuid(),
    entity_type: entityType(),
    entity_id: Uuid(),
    parent_id: Nullable(
      Uuid({ description: 'The comment this one replies to; null at top level' }),
    ),
    body: Type.String({ description: 'As sent; empty once the comment is deleted' }),
    status: Type.String({ description: COMMENT_STATUSES.join(', ') }),
    is_pinned: Type.Boolean(),
    author: Type.Object({ id: Uuid(), name: Nullable(Type.String()) }),
    mentioned_user_ids: Type.Array(Uuid()),
    references: Type.Array(CommentReference),
    created_at: Nullable(Type.String()),
    updated_at: Nullable(Type.String()),
    edited_at: Nullable(Type.String()),
  },
  { $id: 'Comment' },
);

export const CreateCommentBody = Type.Object(
  {
    entity_type: entityType(),
    entity_id: Uuid({ description: 'A record of that kind in the workspace (404)' }),
    body: Type.String({
      minLength: 1,
      maxLength: BODY_MAX,
      description: 'Stored as sent; a blank body (only spaces and line breaks) is refused (422)',
    }),
    parent_id: Type.Optional(
      Uuid({ description: 'Reply to this comment; it must be on the same record (404)' }),
    ),
    mentioned_user_ids: Type.Optional(
      Type.Array(Uuid(), {
        maxItems: MENTIONS_MAX,
        uniqueItems: true,
        description: 'Active members of the workspace (422)',
      }),
    ),
    references: Type.Optional(
      Type.Array(
        Type.Object(
          {
            entity_type: entityType(),
            entity_id: Uuid({ description: 'A record of that kind in the workspace (422)' }),
            label: Type.String({
              minLength: 1,
              maxLength: LABEL_MAX,
              description: 'Free text; spaces and hyphens welcome',
            }),
          },
          { additionalProperties: false },
        ),
        { maxItems: REFERENCES_MAX },
      ),
    ),
  },
  { additionalProperties: false },
);

export const CommentQuery = Type.Object({
  entity_type: entityType(),
  entity_id: Uuid(),
});
