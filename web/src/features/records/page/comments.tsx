import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../../../api/client';
import { FormError, inFieldWords } from '../../../forms/fields';
import { useApiForm } from '../../../forms/form';
import { usePagedList } from '../../../ui/paged';
import { Notice, TimeAgo } from '../../../ui/parts';
import { useRecordPage, type Person } from './context';
import { strings } from '../strings';
import { LoadMore } from '../../../ui/list';

type Comment = Schemas['Comment'];

/** The longest comment the API takes. */
const BODY_MAX = 5000;

/** The people a comment's text names as `@Full Name`, longest names first (`@Ana Maria` before `@Ana`). */
export function mentionedIn(body: string, people: readonly Person[]): Person[] {
  const text = body.toLowerCase();
  return people.filter(
    (person) => person.status === 'active' && text.includes('@' + person.name.toLowerCase()),
  );
}

/** The `@…` being typed just before the caret, if any: what to suggest names for. */
function typedMention(body: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)@([^@\n]{0,40})$/.exec(body.slice(0, caret));
  if (match === null) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]!.toLowerCase() };
}

/** A comment's text with its mentions marked, as the people it names. */
function withMentions(body: string, names: readonly string[]): ComponentChildren {
  if (names.length === 0) return body;
  const escaped = [...names]
    .sort((a, b) => b.length - a.length)
    .map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const parts = body.split(new RegExp(`(@(?:${escaped.join('|')}))`, 'gi'));
  return parts.map((part, i) =>
    i % 2 === 1 ? (
      <strong class="mention" key={i}>
        {part}
      </strong>
    ) : (
      part
    ),
  );
}

/** Replies right under what they answer; top-level comments oldest first, as the API gives them. */
function threaded(comments: readonly Comment[]): { comment: Comment; depth: number }[] {
  const ids = new Set(comments.map((c) => c.id));
  const children = new Map<string, Comment[]>();
  for (const comment of comments) {
    if (comment.parent_id !== null && ids.has(comment.parent_id)) {
      children.set(comment.parent_id, [...(children.get(comment.parent_id) ?? []), comment]);
    }
  }
  const out: { comment: Comment; depth: number }[] = [];
  const visit = (comment: Comment, depth: number) => {
    out.push({ comment, depth });
    for (const reply of children.get(comment.id) ?? []) visit(reply, Math.min(depth + 1, 3));
  };
  for (const comment of comments) {
    if (comment.parent_id === null || !ids.has(comment.parent_id)) visit(comment, 0);
  }
  return out;
}

/** The discussion on the record, oldest first, and a box to add to it (with `@` mentions). */
export function CommentsPart() {
  const page = useRecordPage();
  const list = usePagedList<Comment>(
    (cursor) =>
      call(
        api.GET('/api/v1/comments', {
          params: {
            query: {
              entity_type: page.kind,
              entity_id: page.id,
              limit: 50,
              ...(cursor ? { cursor } : {}),
            },
          },
        }),
      ),
    [page.id, page.version],
  );
  const nameOf = (id: string) => page.people.find((p) => p.id === id)?.name;
  return (
    <section class="panel" aria-labelledby="comments-title" aria-busy={list.loading}>
      <h2 id="comments-title">{strings.comments.title}</h2>
      {list.failure && <Notice tone="bad">{list.failure.error}</Notice>}
      {!list.loading && !list.failure && list.items.length === 0 && (
        <p class="muted">{strings.comments.empty}</p>
      )}
      {list.items.length > 0 && (
        <ul class="comments">
          {threaded(list.items).map(({ comment, depth }) => (
            <li key={comment.id} class={`comment comment-depth-${depth}`}>
              <p class="comment-head">
                <strong>{comment.author.name ?? strings.comments.someone}</strong>{' '}
                <span class="muted small">
                  {depth > 0 && `${strings.comments.reply} · `}
                  <TimeAgo at={comment.created_at} />
                </span>
              </p>
              {comment.status === 'deleted' ? (
                <p class="muted">{strings.comments.deleted}</p>
              ) : (
                <p class="comment-body">
                  {withMentions(
                    comment.body,
                    comment.mentioned_user_ids.map(nameOf).filter((n): n is string => !!n),
                  )}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
      <LoadMore list={list} label={strings.comments.more} />
      {page.can('write:comments') && <CommentForm />}
    </section>
  );
}

function CommentForm() {
  const page = useRecordPage();
  const [body, setBody] = useState('');
  const [caret, setCaret] = useState(0);
  const box = useRef<HTMLTextAreaElement>(null);
  const form = useApiForm({
    fields: ['body', 'mentioned_user_ids'],
    send: (key) => {
      const mentioned = mentionedIn(body, page.people).map((person) => person.id);
      return call(
        api.POST('/api/v1/comments', {
          params: { header: { 'idempotency-key': key } },
          body: {
            entity_type: page.kind,
            entity_id: page.id,
            body,
            ...(mentioned.length > 0 ? { mentioned_user_ids: mentioned } : {}),
          },
        }),
      );
    },
    onSuccess: () => {
      setBody('');
      page.changed(strings.done.comment);
    },
    onQueued: () => {
      setBody('');
      page.kept();
    },
  });
  const typing = typedMention(body, caret);
  const suggestions =
    typing === null
      ? []
      : page.people
          .filter(
            (p) =>
              p.status === 'active' &&
              p.name
                .toLowerCase()
                .split(/\s+/)
                .concat(p.name.toLowerCase())
                .some((part) => part.startsWith(typing.query)),
          )
          .slice(0, 5);
  const mention = (person: Person) => {
    if (typing === null) return;
    const next = `${body.slice(0, typing.start)}@${person.name} ${body.slice(caret)}`;
    const at = typing.start + person.name.length + 2;
    setBody(next);
    setCaret(at);
    box.current?.focus();
    requestAnimationFrame(() => box.current?.setSelectionRange(at, at));
  };
  const refused = form.errorFor('body') ?? form.errorFor('mentioned_user_ids');
  const error = refused && inFieldWords(refused, 'body', strings.comments.body);
  return (
    <form
      class="form comment-form"
      noValidate
      aria-label={strings.comments.title}
      onSubmit={(event) => void form.submit(event)}
    >
      <FormError message={form.formError} />
      <div class={error ? 'field field-invalid' : 'field'}>
        <label for="field-body">{strings.comments.body}</label>
        <p class="field-hint" id="body-hint">
          {strings.comments.bodyHint}
        </p>
        <textarea
          ref={box}
          id="field-body"
          name="body"
          rows={3}
          maxLength={BODY_MAX}
          value={body}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'body-hint body-error' : 'body-hint'}
          onInput={(event) => {
            setBody(event.currentTarget.value);
            setCaret(event.currentTarget.selectionStart);
          }}
          onKeyUp={(event) => setCaret(event.currentTarget.selectionStart)}
          onClick={(event) => setCaret(event.currentTarget.selectionStart)}
        />
        {error && (
          <p class="field-error" id="body-error">
            {error}
          </p>
        )}
      </div>
      {suggestions.length > 0 && (
        <ul class="mentions" aria-label={strings.comments.bodyHint}>
          {suggestions.map((person) => (
            <li key={person.id}>
              <button type="button" class="button" onClick={() => mention(person)}>
                {strings.comments.mention(person.name)}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="actions">
        <button type="submit" class="button button-primary" disabled={form.busy}>
          {strings.comments.save}
        </button>
      </div>
    </form>
  );
}
