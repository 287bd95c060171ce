import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import { api, call, type Answer, type Schemas } from '../../api/client';
import { useSignedIn } from '../../api/session';
import { useAnswer } from '../../ui/answer';
import { personName, usePeopleNames, type PeopleNames } from '../../ui/people';
import { recordNames } from '../../ui/record-names';
import { Chip, Notice, ScreenHeader, TimeAgo } from '../../ui/parts';
import { useTitle } from '../../ui/title';
import { LatestValues } from '../rooms/parts';
import { eventWords, strings } from './strings';
import { recordHref } from '../../ui/links';
import { words } from '../../ui/words';

type Task = Schemas['Task'];
type Contamination = Schemas['Contamination'];
type Explant = Schemas['Explant'];
type ChangeEvent = Schemas['ChangeEvent'];
type Room = Schemas['Room'];

const DAY = 86_400_000;

/** Midnight at the end of tomorrow, in the lab's (the browser's) time. */
function endOfTomorrow(now: Date): Date {
  const end = new Date(now);
  end.setHours(0, 0, 0, 0);
  return new Date(end.getTime() + 2 * DAY);
}

/**
 * The home screen of a signed-in member: the day's work and the lab's state at a
 * glance. Each part loads on its own, so the first one shows without waiting
 * for the others.
 */
export default function Today() {
  const { session } = useSignedIn();
  useTitle(strings.title);
  const now = useMemo(() => new Date(), []);
  const names = usePeopleNames();

  return (
    <>
      <ScreenHeader
        title={strings.title}
        lead={strings.lead(session.member.name, session.member.role, session.workspace.name)}
      />
      <div class="today">
        <DueTasks now={now} names={names} />
        <OpenContaminations names={names} />
        <TransfersDue now={now} />
        <Rooms />
        <Activity names={names} />
      </div>
    </>
  );
}

/** A titled part of the screen, with its loading, failure and empty states. */
function Part<T>(props: {
  title: string;
  answer: Answer<T[]> | null;
  empty: string;
  children: (items: T[]) => ComponentChildren;
}) {
  const id = `part-${props.title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  const { answer } = props;
  return (
    <section class="panel" aria-labelledby={id} aria-busy={answer === null}>
      <h2 id={id}>{props.title}</h2>
      {answer === null && <p class="muted">{strings.loading}</p>}
      {answer !== null && !answer.ok && <Notice tone="bad">{answer.failure.error}</Notice>}
      {answer?.ok && answer.data.length === 0 && <p class="muted">{props.empty}</p>}
      {answer?.ok && answer.data.length > 0 && <ul class="rows">{props.children(answer.data)}</ul>}
    </section>
  );
}

function DueTasks(props: { now: Date; names: PeopleNames }) {
  const answer = useAnswer<Task[]>(() =>
    call(
      api.GET('/api/v1/tasks', {
        params: {
          query: { open: true, due_before: endOfTomorrow(props.now).toISOString(), limit: 20 },
        },
      }),
    ),
  );
  const startOfToday = new Date(props.now);
  startOfToday.setHours(0, 0, 0, 0);
  return (
    <Part title={strings.tasks} answer={answer} empty={strings.tasksEmpty}>
      {(tasks) =>
        tasks.map((task) => {
          const due = task.due_date === null ? null : new Date(task.due_date);
          const overdue = due !== null && due.getTime() < props.now.getTime();
          const today = due !== null && due.getTime() < startOfToday.getTime() + DAY;
          return (
            <li class="row" key={task.id}>
              <div class="row-main">
                <p class="row-title">
                  <a href={recordHref.task(task.id)}>{task.title}</a>
                </p>
                <p class="muted small">
                  {strings.due} <TimeAgo at={task.due_date} />
                  {task.assigned_to === null
                    ? ` · ${strings.noOne}`
                    : nameAfter(personName(props.names, task.assigned_to, strings.formerMember))}
                  {task.priority ? ` · ${strings.priority(task.priority)}` : ''}
                </p>
              </div>
              <div class="row-status">
                {overdue ? (
                  <Chip tone="bad">{strings.overdue}</Chip>
                ) : today ? (
                  <Chip tone="warn">{strings.dueToday}</Chip>
                ) : (
                  <Chip tone="info">{words(task.status)}</Chip>
                )}
              </div>
            </li>
          );
        })
      }
    </Part>
  );
}

function OpenContaminations(props: { names: PeopleNames }) {
  const answer = useAnswer<Contamination[]>(() =>
    call(api.GET('/api/v1/contaminations', { params: { query: { open: true, limit: 20 } } })),
  );
  return (
    <Part title={strings.contaminations} answer={answer} empty={strings.contaminationsEmpty}>
      {(logs) =>
        logs.map((log) => (
          <li class="row" key={log.id}>
            <div class="row-main">
              <p class="row-title">
                <a href={recordHref.contamination(log.id)}>{log.issue}</a>
              </p>
              <p class="muted small">
                {log.type
                  ? `${words(log.type === 'other' ? (log.type_other ?? 'other') : log.type)} · `
                  : ''}
                {log.affected_vessel_markings ? `${log.affected_vessel_markings} · ` : ''}
                {log.vessels_affected !== null ? `${strings.vessels(log.vessels_affected)} · ` : ''}
                {strings.observed} <TimeAgo at={log.observed_at ?? log.created_at} />
                {nameAfter(personName(props.names, log.logged_by, strings.formerMember))}
              </p>
            </div>
            <div class="row-status">
              <Chip tone="bad">
                {words(log.status)} · {log.severity}
              </Chip>
            </div>
          </li>
        ))
      }
    </Part>
  );
}

function TransfersDue(props: { now: Date }) {
  const answer = useAnswer<Explant[]>(() =>
    call(
      api.GET('/api/v1/explants', {
        params: {
          query: {
            transfer_due_before: new Date(props.now.getTime() + 7 * DAY).toISOString(),
            limit: 20,
          },
        },
      }),
    ),
  );
  return (
    <Part title={strings.transfers} answer={answer} empty={strings.transfersEmpty}>
      {(explants) =>
        explants.map((explant) => {
          const overdue = new Date(explant.transfer_due_at).getTime() < props.now.getTime();
          return (
            <li class="row" key={explant.id}>
              <div class="row-main">
                <p class="row-title">
                  <a href={recordHref.explant(explant.id)}>
                    {explant.label ?? explant.external_id ?? explant.id}
                  </a>
                </p>
                <p class="muted small">
                  {explant.current_stage?.name ?? explant.current_stage?.stage ?? strings.noStage}
                  {explant.current_count !== null
                    ? ` · ${strings.vesselsNow(explant.current_count)}`
                    : ''}
                </p>
              </div>
              <div class="row-status">
                <Chip tone={overdue ? 'bad' : 'warn'}>
                  {strings.transferDue} <TimeAgo at={explant.transfer_due_at} />
                </Chip>
              </div>
            </li>
          );
        })
      }
    </Part>
  );
}

function Rooms() {
  const answer = useAnswer<Room[]>(() =>
    call(api.GET('/api/v1/rooms', { params: { query: { limit: 50 } } })),
  );
  return (
    <Part title={strings.rooms} answer={answer} empty={strings.roomsEmpty}>
      {(rooms) =>
        rooms.map((room) => (
          <li class="row" key={room.id}>
            <div class="row-main">
              <p class="row-title">
                <a href={recordHref.room(room.id)}>{room.name}</a>
              </p>
              <p class="muted small">{strings.counts(room.plant_count, room.explant_count)}</p>
              <LatestValues room={room} />
            </div>
          </li>
        ))
      }
    </Part>
  );
}

/**
 * The latest change history, newest recorded first (as the API keeps it), each entry
 * labelled by when it was recorded; a back-dated entry (a move dated last week,
 * recorded today) also says when it happened, so the order and the times agree.
 */
function Activity(props: { names: PeopleNames }) {
  const answer = useAnswer<{ event: ChangeEvent; name: string | null }[]>(async () => {
    const feed = await call(api.GET('/api/v1/activity', { params: { query: { limit: 10 } } }));
    if (!feed.ok) return feed;
    const names = await recordNames(
      feed.data.flatMap((event) =>
        event.entity_type === 'sensor_alert' || event.entity_type === 'stock_lot'
          ? []
          : [{ kind: event.entity_type, id: event.entity_id }],
      ),
    );
    return {
      ok: true,
      nextCursor: null,
      data: feed.data.map((event) => ({ event, name: names.get(event.entity_id) ?? null })),
    };
  });
  return (
    <Part title={strings.activity} answer={answer} empty={strings.activityEmpty}>
      {(entries) =>
        entries.map(({ event, name }) => (
          <li class="row" key={event.id}>
            <div class="row-main">
              <p>
                {event.entity_type === 'sensor_alert' ? (
                  strings.alert
                ) : event.entity_type === 'stock_lot' ? (
                  strings.stockLot
                ) : (
                  <a href={recordHref[event.entity_type](event.entity_id)}>
                    {name ?? words(event.entity_type)}
                  </a>
                )}{' '}
                {eventWords(event.event_type)}
              </p>
              <p class="muted small">
                {strings.recorded} <TimeAgo at={event.created_at} />
                {backDated(event) && (
                  <>
                    {' · '}
                    {strings.happened} <TimeAgo at={event.event_time} />
                  </>
                )}
                {event.recorded_by !== null &&
                  nameAfter(personName(props.names, event.recorded_by, strings.formerMember))}
              </p>
            </div>
          </li>
        ))
      }
    </Part>
  );
}

/** An entry dated earlier than it was recorded (by more than a minute). */
const backDated = (event: ChangeEvent) =>
  Date.parse(event.created_at) - Date.parse(event.event_time) > 60_000;

/** ` · Ana Ruiz` after a line; nothing while the names load. */
const nameAfter = (name: string | null) => (name === null ? null : ` · ${name}`);
