import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call } from '../../api/client';
import { PagedRows } from '../../ui/list';
import { usePagedList } from '../../ui/paged';
import { Notice, ScreenHeader, TimeAgo } from '../../ui/parts';
import { personName, usePeopleNames } from '../../ui/people';
import { useTitle } from '../../ui/title';
import { hrefOf, notificationsRead, type Notification } from './model';
import { strings } from './strings';

const s = strings.inbox;

/** The person's own notifications, newest first: each leads to its record and is read there. */
export default function Inbox() {
  useTitle(s.title);
  const { query, route } = useLocation();
  const unreadOnly = query.unread === 'true';
  const people = usePeopleNames();
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const list = usePagedList<Notification>(
    (cursor) =>
      call(
        api.GET('/api/v1/notifications', {
          params: {
            query: { ...(unreadOnly ? { unread: true } : {}), ...(cursor ? { cursor } : {}) },
          },
        }),
      ),
    [unreadOnly],
  );

  const markRead = async (body: { ids: string[] } | { all: true }) => {
    setProblem(null);
    const answer = await call(api.POST('/api/v1/notifications/read', { body }));
    if (!answer.ok) {
      setProblem(answer.failure.error);
      return null;
    }
    notificationsRead();
    return answer.data;
  };

  const markAll = async () => {
    const done = await markRead({ all: true });
    if (done === null) return;
    setNotice(s.markedAll(done.marked));
    await list.reload();
  };

  const open = async (item: Notification, href: string | null) => {
    if (item.read_at === null) await markRead({ ids: [item.id] });
    if (href !== null) route(href);
    else await list.reload();
  };

  return (
    <>
      <ScreenHeader title={s.title} lead={s.lead}>
        <div class="header-actions">
          <button type="button" class="button" onClick={() => void markAll()}>
            {s.markAll}
          </button>
          <a class="button" href="/notifications/settings">
            {strings.settings.title}
          </a>
        </div>
      </ScreenHeader>
      <div class="field board-filter">
        <label for="inbox-show">{s.show}</label>
        <select
          id="inbox-show"
          value={unreadOnly ? 'unread' : ''}
          onChange={(event) =>
            route(
              event.currentTarget.value === 'unread'
                ? '/notifications?unread=true'
                : '/notifications',
            )
          }
        >
          <option value="">{s.all}</option>
          <option value="unread">{s.unreadOnly}</option>
        </select>
      </div>
      {notice && (
        <p role="status" class="notice notice-info">
          {notice}
        </p>
      )}
      {problem && <Notice tone="bad">{problem}</Notice>}
      <PagedRows
        list={list}
        class="inbox rows-stacked"
        loading={s.loading}
        empty={unreadOnly ? s.emptyUnread : s.empty}
        more={s.more}
        row={(item) => {
          const href = hrefOf(item);
          const unread = item.read_at === null;
          const actor =
            item.actor_id === null ? null : personName(people, item.actor_id, s.formerMember);
          return (
            <li class={unread ? 'row inbox-unread' : 'row'} key={item.id}>
              <div class="row-main">
                <p class="row-title">
                  {unread && <span class="visually-hidden">{s.unread}: </span>}
                  <strong class="inbox-kind">{strings.kinds[item.kind]}</strong>{' '}
                  {href === null ? (
                    <span>{item.record.label}</span>
                  ) : (
                    <a
                      href={href}
                      onClick={(event) => {
                        event.preventDefault();
                        void open(item, href);
                      }}
                    >
                      {item.record.label}
                    </a>
                  )}
                </p>
                <p class="muted small">
                  <TimeAgo at={item.created_at} />
                  {actor !== null && ` · ${s.by(actor)}`}
                </p>
              </div>
              {unread && (
                <div class="row-status">
                  <button type="button" class="button" onClick={() => void open(item, null)}>
                    {s.markRead}
                  </button>
                </div>
              )}
            </li>
          );
        }}
      />
    </>
  );
}
