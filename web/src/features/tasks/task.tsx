import type { VNode } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, call, type Answer } from '../../api/client';
import { FormError, SelectField } from '../../forms/fields';
import { useApiForm } from '../../forms/form';
import { useSignedIn } from '../../api/session';
import { useAnswer } from '../../ui/answer';
import { usePeopleNames } from '../../ui/people';
import { Chip, GridFact, ScreenHeader, TimeAgo } from '../../ui/parts';
import { useRecordScreen } from '../../ui/record-screen';
import { useTitle } from '../../ui/title';
import { recordHref, words } from '../records/model';
import {
  dueTone,
  statusWords,
  STATUS_WORDS,
  TASK_STATUSES,
  useDemand,
  type Task as TaskRecord,
  type TaskStatus,
} from './model';

const strings = {
  title: 'Task',
  back: 'All tasks',
  loading: 'Loading the task…',
  facts: 'About this task',
  status: 'Status',
  due: 'Due',
  noDue: 'No due date',
  priority: 'Priority',
  category: 'Kind of work',
  genus: 'Genus',
  demand: 'Demand for the genus',
  demandNone: 'No demand recorded',
  demandNotInPlan: 'Not part of this lab’s plan',
  assigned: 'Assigned to',
  nobody: 'Nobody',
  notes: 'Notes',
  created: 'Created',
  completed: 'Completed',
  completedBy: (name: string) => `by ${name}`,
  record: 'Linked record',
  noRecord: 'Not linked to a plant or explant.',
  plant: 'Plant',
  explant: 'Explant',
  actions: 'Actions',
  complete: 'Mark as done',
  reopen: 'Reopen',
  move: 'Move to',
  moved: (status: string) => `Moved to ${status}.`,
  someone: 'a former member',
} as const;

export default function Task() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const screen = useRecordScreen<TaskRecord>(
    () => call(api.GET('/api/v1/tasks/{id}', { params: { path: { id } } })),
    id,
    { href: '/tasks', back: strings.back, loading: strings.loading, small: true },
  );
  useTitle(screen.record?.title ?? strings.title);
  if (screen.record === null) return screen.fallback;
  return <TaskPage task={screen.record} back={screen.back} onChange={screen.setRecord} />;
}

function TaskPage(props: { task: TaskRecord; back: VNode; onChange: (task: TaskRecord) => void }) {
  const { task } = props;
  const { atLeast } = useSignedIn();
  const people = usePeopleNames();
  const demand = useDemand(task.genus ? [task.genus] : []);
  const genusDemand = demand.kind === 'ok' ? demand.scoreOf(task.genus) : null;
  const nameOf = (member: string | null) =>
    member === null ? strings.nobody : (people.get(member) ?? strings.someone);
  return (
    <>
      {props.back}
      <ScreenHeader title={task.title}>
        <div class="header-chips">
          <Chip tone={task.status === 'done' ? 'ok' : 'info'}>{statusWords(task.status)}</Chip>
          {task.due_date !== null && task.status !== 'done' && (
            <Chip tone={dueTone(task, Date.now())}>
              {strings.due} <TimeAgo at={task.due_date} />
            </Chip>
          )}
        </div>
      </ScreenHeader>
      {atLeast('member') && <Actions task={task} onChange={props.onChange} />}
      <section class="panel" aria-labelledby="task-facts">
        <h2 id="task-facts">{strings.facts}</h2>
        <dl class="facts facts-grid">
          <GridFact term={strings.status}>{statusWords(task.status)}</GridFact>
          <GridFact term={strings.due}>
            {task.due_date === null ? strings.noDue : new Date(task.due_date).toLocaleString()}
          </GridFact>
          <GridFact term={strings.priority}>{task.priority ?? '–'}</GridFact>
          <GridFact term={strings.category}>
            {task.category_label ?? (task.category ? words(task.category) : '–')}
          </GridFact>
          <GridFact term={strings.genus}>{task.genus ? <i>{task.genus}</i> : '–'}</GridFact>
          {task.genus && (
            <GridFact term={strings.demand}>
              {demand.kind === 'not-in-plan'
                ? strings.demandNotInPlan
                : genusDemand === null
                  ? strings.demandNone
                  : genusDemand.score}
            </GridFact>
          )}
          <GridFact term={strings.assigned}>{nameOf(task.assigned_to)}</GridFact>
          <GridFact term={strings.created}>
            <TimeAgo at={task.created_at} />
          </GridFact>
          {task.completed_at !== null && (
            <GridFact term={strings.completed}>
              <TimeAgo at={task.completed_at} /> {strings.completedBy(nameOf(task.completed_by))}
            </GridFact>
          )}
          {task.notes && <GridFact term={strings.notes}>{task.notes}</GridFact>}
        </dl>
      </section>
      <LinkedRecord link={task.entity_link ?? null} />
    </>
  );
}

function LinkedRecord(props: {
  link: { entity_type: 'plant' | 'explant'; entity_id: string } | null;
}) {
  const { link } = props;
  const answer = useAnswer<{ label: string; status: string }>(async () => {
    if (link === null) return { ok: true, data: { label: '', status: '' }, nextCursor: null };
    if (link.entity_type === 'plant') {
      const plant = await call(
        api.GET('/api/v1/plants/{id}', { params: { path: { id: link.entity_id } } }),
      );
      return plant.ok
        ? {
            ...plant,
            data: {
              label: `${plant.data.name} (${plant.data.species})`,
              status: plant.data.status,
            },
          }
        : plant;
    }
    const explant: Answer<{ label: string | null; external_id: string | null; status: string }> =
      await call(api.GET('/api/v1/explants/{id}', { params: { path: { id: link.entity_id } } }));
    return explant.ok
      ? {
          ...explant,
          data: {
            label: explant.data.label ?? explant.data.external_id ?? link.entity_id,
            status: explant.data.status,
          },
        }
      : explant;
  }, [link?.entity_id]);
  return (
    <section class="panel" aria-labelledby="task-record">
      <h2 id="task-record">{strings.record}</h2>
      {link === null && <p class="muted">{strings.noRecord}</p>}
      {link !== null && (
        <p>
          {link.entity_type === 'plant' ? strings.plant : strings.explant}:{' '}
          <a href={recordHref[link.entity_type](link.entity_id)}>
            {answer?.ok ? answer.data.label : link.entity_id}
          </a>
          {answer?.ok && <span class="muted small"> · {words(answer.data.status)}</span>}
        </p>
      )}
    </section>
  );
}

function Actions(props: { task: TaskRecord; onChange: (task: TaskRecord) => void }) {
  const { task } = props;
  // The status asked for, read when the request is sent (a retry sends the same).
  const target = useRef<TaskStatus>('done');
  const [moved, setMoved] = useState<string | null>(null);
  const form = useApiForm({
    fields: ['workflow_status'],
    send: (key) =>
      call(
        api.PATCH('/api/v1/tasks/{id}', {
          params: { path: { id: task.id }, header: { 'idempotency-key': key } },
          body: { workflow_status: target.current },
        }),
      ),
    onSuccess: (changed) => {
      setMoved(strings.moved(statusWords(changed.status)));
      props.onChange(changed);
    },
  });
  const go = (status: TaskStatus) => {
    target.current = status;
    void form.submit();
  };

  return (
    <section class="panel" aria-labelledby="task-actions">
      <h2 id="task-actions">{strings.actions}</h2>
      <FormError message={form.errorFor('workflow_status') ?? form.formError} />
      <div class="actions">
        {task.status !== 'done' ? (
          <button
            type="button"
            class="button button-primary"
            disabled={form.busy}
            onClick={() => go('done')}
          >
            {strings.complete}
          </button>
        ) : (
          <button type="button" class="button" disabled={form.busy} onClick={() => go('todo')}>
            {strings.reopen}
          </button>
        )}
      </div>
      <div class="board-filter">
        <SelectField
          name="move-to"
          label={strings.move}
          error={null}
          options={TASK_STATUSES.map((s) => [s, STATUS_WORDS[s]] as const)}
          value={task.status}
          onChange={(value) => go(value as TaskStatus)}
        />
      </div>
      {moved && (
        <p class="muted small" role="status">
          {moved}
        </p>
      )}
    </section>
  );
}
