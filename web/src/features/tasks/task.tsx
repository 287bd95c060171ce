import type { VNode } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, call, type Answer } from '../../api/client';
import { FormError, SelectField } from '../../forms/fields';
import { useApiForm } from '../../forms/form';
import { useSignedIn } from '../../api/session';
import { useAnswer } from '../../ui/answer';
import { personName, usePeopleNames } from '../../ui/people';
import { Chip, GridFact, ScreenHeader, TimeAgo } from '../../ui/parts';
import { useRecordScreen } from '../../ui/record-screen';
import { useTitle } from '../../ui/title';
import { recordHref } from '../../ui/links';
import { words } from '../../ui/words';
import {
  dueTone,
  statusWords,
  STATUS_WORDS,
  TASK_STATUSES,
  type Task as TaskRecord,
  type TaskStatus,
} from './model';
import { useDemand } from './demand';
import { strings } from './strings';

export default function Task() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const screen = useRecordScreen<TaskRecord>(
    () => call(api.GET('/api/v1/tasks/{id}', { params: { path: { id } } })),
    id,
    { href: '/tasks', back: strings.task.back, loading: strings.task.loading, small: true },
  );
  useTitle(screen.record?.title ?? strings.task.title);
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
    member === null ? strings.task.nobody : personName(people, member, strings.task.someone);
  return (
    <>
      {props.back}
      <ScreenHeader title={task.title}>
        <div class="header-chips">
          <Chip tone={task.status === 'done' ? 'ok' : 'info'}>{statusWords(task.status)}</Chip>
          {task.due_date !== null && task.status !== 'done' && (
            <Chip tone={dueTone(task, Date.now())}>
              {strings.task.due} <TimeAgo at={task.due_date} />
            </Chip>
          )}
        </div>
      </ScreenHeader>
      {atLeast('member') && <Actions task={task} onChange={props.onChange} />}
      <section class="panel" aria-labelledby="task-facts">
        <h2 id="task-facts">{strings.task.facts}</h2>
        <dl class="facts facts-grid">
          <GridFact term={strings.task.status}>{statusWords(task.status)}</GridFact>
          <GridFact term={strings.task.due}>
            {task.due_date === null ? strings.task.noDue : new Date(task.due_date).toLocaleString()}
          </GridFact>
          <GridFact term={strings.task.priority}>{task.priority ?? '–'}</GridFact>
          <GridFact term={strings.task.category}>
            {task.category_label ?? (task.category ? words(task.category) : '–')}
          </GridFact>
          <GridFact term={strings.task.genus}>{task.genus ? <i>{task.genus}</i> : '–'}</GridFact>
          {task.genus && (
            <GridFact term={strings.task.demand}>
              {demand.kind === 'not-in-plan'
                ? strings.task.demandNotInPlan
                : genusDemand === null
                  ? strings.task.demandNone
                  : genusDemand.score}
            </GridFact>
          )}
          <GridFact term={strings.task.assigned}>{nameOf(task.assigned_to)}</GridFact>
          <GridFact term={strings.task.created}>
            <TimeAgo at={task.created_at} />
          </GridFact>
          {task.completed_at !== null && (
            <GridFact term={strings.task.completed}>
              <TimeAgo at={task.completed_at} />
              {nameOf(task.completed_by) !== null &&
                ` ${strings.task.completedBy(nameOf(task.completed_by)!)}`}
            </GridFact>
          )}
          {task.notes && <GridFact term={strings.task.notes}>{task.notes}</GridFact>}
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
      <h2 id="task-record">{strings.task.record}</h2>
      {link === null && <p class="muted">{strings.task.noRecord}</p>}
      {link !== null && (
        <p>
          {link.entity_type === 'plant' ? strings.task.plant : strings.task.explant}:{' '}
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
      setMoved(strings.task.moved(statusWords(changed.status)));
      props.onChange(changed);
    },
  });
  const go = (status: TaskStatus) => {
    target.current = status;
    void form.submit();
  };

  return (
    <section class="panel" aria-labelledby="task-actions">
      <h2 id="task-actions">{strings.task.actions}</h2>
      <FormError message={form.errorFor('workflow_status') ?? form.formError} />
      <div class="actions">
        {task.status !== 'done' ? (
          <button
            type="button"
            class="button button-primary"
            disabled={form.busy}
            onClick={() => go('done')}
          >
            {strings.task.complete}
          </button>
        ) : (
          <button type="button" class="button" disabled={form.busy} onClick={() => go('todo')}>
            {strings.task.reopen}
          </button>
        )}
      </div>
      <div class="board-filter">
        <SelectField
          name="move-to"
          label={strings.task.move}
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
