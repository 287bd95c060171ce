import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call } from '../../api/client';
import { useApiForm } from '../../forms/form';
import { FormError } from '../../forms/fields';
import { useSignedIn } from '../../api/session';
import { DownloadCsv } from '../../ui/download';
import { PagedRows } from '../../ui/list';
import { usePagedList, type PagedList } from '../../ui/paged';
import { personName, usePeopleNames, type PeopleNames } from '../../ui/people';
import { Chip, Notice, ScreenHeader, TimeAgo } from '../../ui/parts';
import { useTitle } from '../../ui/title';
import { recordHref } from '../../ui/links';
import { words } from '../../ui/words';
import { dueTone, STATUS_WORDS, TASK_STATUSES, type Task, type TaskStatus } from './model';
import { useDemand, type DemandAnswer } from './demand';
import { NewTask } from './new-task';
import { strings } from './strings';

/** Cards read per column and page. */
const COLUMN_PAGE = 20;

export default function Tasks() {
  useTitle(strings.board.title);
  const { atLeast, session } = useSignedIn();
  const { query, route } = useLocation();
  const mine = query.assigned_to === session.member.id;
  const filter = mine ? { assigned_to: session.member.id } : {};
  const people = usePeopleNames();
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  // One list per column, each paged by its own cursor.
  const columns = TASK_STATUSES.map((status) =>
    usePagedList<Task>(
      (cursor) =>
        call(
          api.GET('/api/v1/tasks', {
            params: {
              query: { status, limit: COLUMN_PAGE, ...filter, ...(cursor ? { cursor } : {}) },
            },
          }),
        ),
      [mine],
    ),
  );
  const listOf = (status: string) => columns[TASK_STATUSES.indexOf(status as TaskStatus)];
  const moved = (from: string, task: Task) => {
    listOf(from)?.remove(task.id);
    listOf(task.status)?.upsert(task, true);
  };
  const genera = columns.flatMap((list) => list.items.map((t) => t.genus ?? '')).filter(Boolean);
  const demand = useDemand(genera);
  const writer = atLeast('member');

  return (
    <>
      <ScreenHeader title={strings.board.title} lead={strings.board.lead}>
        <div class="header-actions">
          {writer && !creating && (
            <button type="button" class="button button-primary" onClick={() => setCreating(true)}>
              {strings.board.create}
            </button>
          )}
          <DownloadCsv path="/api/v1/tasks" query={filter} file="tasks" />
        </div>
      </ScreenHeader>
      {creating && (
        <NewTask
          people={people}
          onCancel={() => setCreating(false)}
          onCreated={(task) => {
            setCreating(false);
            setNotice(strings.board.created(task.title));
            listOf(task.status)?.upsert(task, true);
          }}
        />
      )}
      {notice && (
        <p role="status" class="notice notice-info">
          {notice}
        </p>
      )}
      <div class="field board-filter">
        <label for="tasks-mine">{strings.board.mine}</label>
        <select
          id="tasks-mine"
          value={mine ? 'mine' : ''}
          onChange={(event) =>
            route(
              event.currentTarget.value === 'mine'
                ? `/tasks?assigned_to=${session.member.id}`
                : '/tasks',
            )
          }
        >
          <option value="">{strings.board.everyone}</option>
          <option value="mine">{strings.board.onlyMine}</option>
        </select>
      </div>
      <DemandPanel demand={demand} />
      <div class="board">
        {TASK_STATUSES.map((status, i) => (
          <Column
            key={status}
            status={status}
            list={columns[i]!}
            people={people}
            demand={demand}
            writer={writer}
            onMoved={moved}
          />
        ))}
      </div>
    </>
  );
}

function DemandPanel(props: { demand: DemandAnswer }) {
  const { demand } = props;
  return (
    <section class="panel demand" aria-labelledby="demand-title">
      <h2 id="demand-title">{strings.board.demand}</h2>
      <p class="muted small">{strings.board.demandLead}</p>
      {demand.kind === 'loading' && <p class="muted">{strings.board.loading}</p>}
      {demand.kind === 'not-in-plan' && (
        <Notice>
          {strings.board.demandNotInPlan} {demand.failure.error}
        </Notice>
      )}
      {demand.kind === 'failed' && <Notice tone="bad">{demand.failure.error}</Notice>}
      {demand.kind === 'ok' && demand.current.length === 0 && (
        <p class="muted">{strings.board.demandEmpty}</p>
      )}
      {demand.kind === 'ok' && demand.current.length > 0 && (
        <ol class="demand-list">
          {demand.current.map((d) => (
            <li key={d.genus}>
              <i>{d.genus}</i> <strong>{d.score}</strong>{' '}
              <span class="muted small">
                <TimeAgo at={d.observedAt} />
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Column(props: {
  status: TaskStatus;
  list: PagedList<Task>;
  people: PeopleNames;
  demand: DemandAnswer;
  writer: boolean;
  onMoved: (from: string, task: Task) => void;
}) {
  const { list, status } = props;
  const id = `column-${status}`;
  return (
    <section class="board-column" aria-labelledby={id}>
      <h2 id={id}>
        {STATUS_WORDS[status]}{' '}
        <span class="muted small">{strings.board.count(list.items.length, list.more)}</span>
      </h2>
      <PagedRows
        list={list}
        class="cards"
        loading={strings.board.loading}
        empty={strings.board.empty}
        more={strings.board.more}
        row={(task) => (
          <TaskCard
            key={task.id}
            task={task}
            people={props.people}
            demand={props.demand}
            writer={props.writer}
            onMoved={props.onMoved}
          />
        )}
      />
    </section>
  );
}

function TaskCard(props: {
  task: Task;
  people: PeopleNames;
  demand: DemandAnswer;
  writer: boolean;
  onMoved: (from: string, task: Task) => void;
}) {
  const { task } = props;
  const demand = props.demand.kind === 'ok' ? props.demand.scoreOf(task.genus) : null;
  const complete = useApiForm({
    fields: [],
    send: (key) =>
      call(
        api.PATCH('/api/v1/tasks/{id}', {
          params: { path: { id: task.id }, header: { 'idempotency-key': key } },
          body: { workflow_status: 'done' },
        }),
      ),
    onSuccess: (done) => props.onMoved(task.status, done),
  });
  return (
    <li class="card">
      <p class="row-title">
        <a href={recordHref.task(task.id)}>{task.title}</a>
      </p>
      <p class="small">
        {task.due_date === null ? (
          <span class="muted">{strings.board.noDue}</span>
        ) : (
          <Chip tone={dueTone(task, Date.now())}>
            {strings.board.due} <TimeAgo at={task.due_date} />
          </Chip>
        )}
        {task.priority && <span class="tag">{task.priority}</span>}
      </p>
      <p class="muted small">
        {task.category ? words(task.category) : ''}
        {task.genus && (
          <>
            {' · '}
            <i>{task.genus}</i>
            {demand && (
              <>
                {' '}
                <span class="demand-score">
                  {strings.board.score} {demand.score}
                </span>
              </>
            )}
          </>
        )}
      </p>
      <p class="muted small">
        {task.assigned_to === null
          ? strings.board.unassigned
          : personName(props.people, task.assigned_to, strings.board.unassigned)}
      </p>
      {props.writer && task.status !== 'done' && (
        <div class="row-actions">
          <button
            type="button"
            class="button"
            disabled={complete.busy}
            aria-label={`${strings.board.complete}: ${task.title}`}
            onClick={() => void complete.submit()}
          >
            {strings.board.complete}
          </button>
        </div>
      )}
      <FormError message={complete.formError} />
    </li>
  );
}
