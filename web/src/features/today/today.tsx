import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import { api, call, type Answer, type Schemas } from '../../api/client';
import { useSignedIn } from '../../api/session';
import { useAnswer } from '../../ui/answer';
import { usePeopleNames } from '../../ui/people';
import { Chip, Notice, ScreenHeader, TimeAgo } from '../../ui/parts';
import { useTitle } from '../../ui/title';
import { sensorWords } from '../sensors/strings';
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

function DueTasks(props: { now: Date; names: Map<string, string> }) {
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
                  {strings.due} <TimeAgo at={task.due_date} /> ·{' '}
                  {task.assigned_to === null
                    ? strings.noOne
                    : (props.names.get(task.assigned_to) ?? strings.someone)}
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

function OpenContaminations(props: { names: Map<string, string> }) {
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
                {strings.observed} <TimeAgo at={log.observed_at ?? log.created_at} /> ·{' '}
                {props.names.get(log.logged_by) ?? strings.someone}
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
                  {explant.current_stage?.name ?? explant.current_stage?.stage ?? ''}
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
              {room.latest_readings !== null && room.latest_readings.length === 0 && (
                <p class="muted small">{strings.noReadings}</p>
              )}
              {room.latest_readings !== null && room.latest_readings.length > 0 && (
                <dl class="readings">
                  {room.latest_readings.map((reading) => (
                    <div key={reading.type}>
                      <dt>{sensorWords(reading.type)}</dt>
                      <dd>
                        <strong>
                          {reading.value} {reading.unit}
                        </strong>{' '}
                        <span class="muted small">
                          <TimeAgo at={reading.recorded_at} />
                        </span>
                      </dd>
                    </div>
                  ))}
                </dl>
              )}
            </div>
          </li>
        ))
      }
    </Part>
  );
}

/** A plant's or explant's name for the feed, read once per record shown. */
async function recordNames(events: readonly ChangeEvent[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const ids = new Map<string, 'plant' | 'explant'>();
  for (const event of events) {
    if (event.entity_type !== 'sensor_alert') ids.set(event.entity_id, event.entity_type);
  }
  await Promise.all(
    [...ids].map(async ([id, type]) => {
      if (type === 'plant') {
        const read = await call(api.GET('/api/v1/plants/{id}', { params: { path: { id } } }));
        if (read.ok) names.set(id, read.data.name);
      } else {
        const read = await call(api.GET('/api/v1/explants/{id}', { params: { path: { id } } }));
        if (read.ok) names.set(id, read.data.label ?? read.data.external_id ?? id);
      }
    }),
  );
  return names;
}

function Activity(props: { names: Map<string, string> }) {
  const answer = useAnswer<{ event: ChangeEvent; name: string | null }[]>(async () => {
    const feed = await call(api.GET('/api/v1/activity', { params: { query: { limit: 10 } } }));
    if (!feed.ok) return feed;
    const names = await recordNames(feed.data);
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
                ) : (
                  <a href={recordHref[event.entity_type](event.entity_id)}>
                    {name ?? words(event.entity_type)}
                  </a>
                )}{' '}
                {eventWords(event.event_type)}
              </p>
              <p class="muted small">
                {event.recorded_by === null
                  ? strings.someone
                  : (props.names.get(event.recorded_by) ?? strings.someone)}{' '}
                · <TimeAgo at={event.event_time} />
              </p>
            </div>
          </li>
        ))
      }
    </Part>
  );
}
