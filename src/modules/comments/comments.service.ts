import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import {
  recordVisibleTo,
  type RecordKind,
  type RecordLookup,
  type RecordRef,
  type RecordRefs,
} from '../../kernel/record-lookup.js';
import { listMembers } from '../identity/index.js';
import { notify, type Addressed } from '../notifications/index.js';
import { comments, listCommentRows, type CommentRow } from './comments.repository.js';
import type {
  Comment,
  CommentQuery,
  CommentReference,
  CreateCommentBody,
} from './comments.schemas.js';

export type CommentRecord = Static<typeof Comment>;
export type CreateCommentInput = Static<typeof CreateCommentBody>;
type Reference = Static<typeof CommentReference>;
type EntityType = CommentRecord['entity_type'];

const TITLE: Readonly<Record<EntityType, string>> = {
  plant: 'Plant',
  explant: 'Explant',
  contamination: 'Contamination',
  task: 'Task',
  media_recipe: 'Media recipe',
  sop: 'SOP',
};

/** What a comment needs of the records it is on: their names, for the notifications it makes. */
export type CommentRecords = RecordLookup<
  RecordRefs & {
    readonly plant: RecordRef & { species: string; common_name: string | null };
    readonly explant: RecordRef & { label: string };
    readonly contamination: RecordRef & { issue: string };
    readonly task: RecordRef & { title: string };
    readonly media_recipe: RecordRef & { title: string };
    readonly sop: RecordRef & { title: string };
  }
>;

type Named = RecordRef &
  Partial<{
    species: string;
    common_name: string | null;
    label: string;
    issue: string;
    title: string;
  }>;

/** How people name a record: a plant's common name (else its species), an explant's label, a title. */
function labelOf(ref: Named): string {
  if (ref.species !== undefined) {
    return ref.common_name !== null && ref.common_name !== undefined && ref.common_name !== ''
      ? ref.common_name
      : ref.species;
  }
  return ref.label ?? ref.issue ?? ref.title ?? ref.id;
}

/** The workspace's members by id (removed ones too: their comments keep their name). */
async function membersOf(
  db: Db,
  workspaceId: string,
): Promise<Map<string, { name: string; active: boolean }>> {
  const members = await listMembers(db, workspaceId);
  return new Map(members.map((m) => [m.id, { name: m.name, active: m.status === 'active' }]));
}

/**
 * A comment as the API answers it. A deleted comment was emptied when it was
 * deleted (`deleteComment`): it answers with its slot and no text.
 */
function presentComment(row: CommentRow, authorName: string | null): CommentRecord {
  return {
    id: row.id,
    entity_type: row.entity_type as EntityType,
    entity_id: row.entity_id,
    parent_id: row.parent_id,
    body: row.body,
    status: row.status,
    is_pinned: row.is_pinned === 1,
    author: { id: row.author_id, name: authorName },
    mentioned_user_ids: JSON.parse(row.mentioned_user_ids) as string[],
    references: JSON.parse(row.entity_references) as Reference[],
    created_at: row.created_at,
    updated_at: row.updated_at,
    edited_at: row.edited_at,
  };
}

/**
 * Whether the caller can see the record of this kind and id: another workspace's
 * record, and another member's private one, are not there, as an unknown id.
 */
async function visibleRecord(
  db: Db,
  records: RecordLookup,
  principal: Principal,
  kind: RecordKind,
  id: string,
): Promise<RecordRef | undefined> {
  const ref = await records.find(db, kind, principal.workspaceId, id);
  return ref !== undefined && recordVisibleTo(ref, principal.memberId) ? ref : undefined;
}

async function requireRecord(
  db: Db,
  records: RecordLookup,
  principal: Principal,
  kind: EntityType,
  id: string,
): Promise<RecordRef> {
  const ref = await visibleRecord(db, records, principal, kind, id);
  if (ref === undefined) throw errors.notFound(TITLE[kind]);
  return ref;
}

/**
 * The comment a reply answers: one on the same record that is not deleted. A
 * comment of another record or another workspace is answered as an unknown id.
 */
async function requireParent(
  db: Db,
  workspaceId: string,
  input: CreateCommentInput,
): Promise<CommentRow | null> {
  if (input.parent_id === undefined) return null;
  const parent = await comments.find(db, workspaceId, input.parent_id);
  if (
    parent === undefined ||
    parent.entity_type !== input.entity_type ||
    parent.entity_id !== input.entity_id ||
    parent.status === 'deleted'
  ) {
    throw errors.notFound('Parent comment');
  }
  return parent;
}

/** Mentions name active members; a removed member, another workspace's and an unknown id alike are 422. */
function requireMentions(
  members: Map<string, { active: boolean }>,
  mentioned: readonly string[],
): void {
  mentioned.forEach((id, i) => {
    if (members.get(id)?.active !== true) {
      throw errors.validation(
        `mentioned_user_ids[${i}]: no active member with this id in the workspace`,
      );
    }
  });
}

async function requireReferences(
  db: Db,
  records: RecordLookup,
  principal: Principal,
  references: readonly Reference[],
): Promise<void> {
  for (const [i, ref] of references.entries()) {
    if (
      (await visibleRecord(db, records, principal, ref.entity_type, ref.entity_id)) === undefined
    ) {
      throw errors.validation(
        `references[${i}].entity_id: no ${ref.entity_type} with this id in the workspace`,
      );
    }
  }
}

/**
 * Adds a comment, as the key's owner, to a record of the workspace: a reply when
 * `parent_id` names a comment on the same record. The body is stored as sent; a blank
 * one (only spaces and line breaks) says nothing and is refused (422). The members it
 * mentions, and the author of the comment it answers, are notified.
 */
export async function createComment(
  trx: Trx,
  principal: Principal,
  input: CreateCommentInput,
  records: CommentRecords,
  now: string,
): Promise<CommentRecord> {
  const workspaceId = principal.workspaceId;
  const authorId = principal.memberId;
  if (authorId === null) throw errors.validation('comments are written by a member’s key');
  if (input.body.trim() === '') throw errors.validation('body: must not be blank');
  const target = await requireRecord(trx, records, principal, input.entity_type, input.entity_id);
  const parent = await requireParent(trx, workspaceId, input);
  const members = await membersOf(trx, workspaceId);
  const mentioned = input.mentioned_user_ids ?? [];
  requireMentions(members, mentioned);
  const references = (input.references ?? []).map((r) => ({
    entity_type: r.entity_type,
    entity_id: r.entity_id,
    label: r.label,
  }));
  await requireReferences(trx, records, principal, references);
  const row: CommentRow = {
    id: newId(),
    workspace_id: workspaceId,
    entity_type: input.entity_type,
    entity_id: input.entity_id,
    parent_id: parent?.id ?? null,
    body: input.body,
    status: 'active',
    is_pinned: 0,
    author_id: authorId,
    mentioned_user_ids: JSON.stringify(mentioned),
    entity_references: JSON.stringify(references),
    created_at: now,
    updated_at: now,
    edited_at: null,
    deleted_at: null,
  };
  await comments.insert(trx, row);
  await notify(trx, workspaceId, noticesOf(row, labelOf(target), parent), now);
  return presentComment(row, members.get(authorId)?.name ?? null);
}

/**
 * A new comment's notifications: its mentions, then a reply to the parent's author.
 * Both name the comment as their event: someone mentioned in a reply to their own
 * comment is told once, of the mention.
 */
function noticesOf(row: CommentRow, label: string, parent: CommentRow | null): Addressed[] {
  const notice = {
    eventKey: `comment:${row.id}`,
    record: { type: row.entity_type, id: row.entity_id, label },
    commentId: row.id,
    actorId: row.author_id,
  };
  const mentioned = JSON.parse(row.mentioned_user_ids) as string[];
  const notices: Addressed[] = [];
  if (mentioned.length > 0)
    notices.push({ ...notice, kind: 'mention', to: { members: mentioned } });
  if (parent !== null) {
    notices.push({ ...notice, kind: 'reply', to: { members: [parent.author_id] } });
  }
  return notices;
}

/** One record's comments, oldest first: replies carry `parent_id`; deleted ones keep their slot. */
export async function listComments(
  db: Db,
  principal: Principal,
  query: Static<typeof CommentQuery>,
  records: RecordLookup,
  page: PageRequest,
): Promise<Page<CommentRecord>> {
  await requireRecord(db, records, principal, query.entity_type, query.entity_id);
  const { items, nextKey } = await listCommentRows(
    db,
    principal.workspaceId,
    { type: query.entity_type, id: query.entity_id },
    page,
  );
  if (items.length === 0) return { items: [], nextKey };
  const members = await membersOf(db, principal.workspaceId);
  return {
    items: items.map((row) => presentComment(row, members.get(row.author_id)?.name ?? null)),
    nextKey,
  };
}

/**
 * Deletes a comment as the lab's app does (the API has no delete): it keeps its
 * place in the thread, so replies still hang under it, and loses its text, its
 * mentions and its references.
 */
export async function deleteComment(
  trx: Trx,
  workspaceId: string,
  id: string,
  now: string,
): Promise<void> {
  const row = await comments.find(trx, workspaceId, id);
  if (row === undefined) throw errors.notFound('Comment');
  if (row.status === 'deleted') return;
  await comments.update(trx, workspaceId, id, {
    status: 'deleted',
    body: '',
    mentioned_user_ids: '[]',
    entity_references: '[]',
    updated_at: now,
    deleted_at: now,
  });
}
