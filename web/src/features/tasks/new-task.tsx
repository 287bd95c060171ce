import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { DateField, FormError, SelectField, TextAreaField, TextField } from '../../forms/fields';
import { useApiForm } from '../../forms/form';
import { More } from '../../ui/parts';
import { RecordPicker, type PickedRecord } from '../../forms/record-picker';
import {
  CATEGORIES,
  endOfDay,
  PRIORITIES,
  STATUS_WORDS,
  TASK_STATUSES,
  type Category,
  type Priority,
  type Task,
  type TaskStatus,
} from './model';
import { words } from '../records/model';

const strings = {
  title: 'New task',
  name: 'What needs doing',
  nameHint: 'e.g. “Pour 40 jars of MS medium”',
  due: 'Due',
  record: 'Plant or explant (optional)',
  status: 'Column',
  category: 'Kind of work',
  priority: 'Priority',
  noPriority: 'None',
  genus: 'Genus',
  genusHint: 'The genus it is for: the store’s demand for it shows on the card.',
  assignee: 'Assigned to',
  nobody: 'Nobody yet',
  notes: 'Notes',
  save: 'Create task',
  cancel: 'Cancel',
} as const;

/** The form that creates a task: a title is all the API needs; the rest is behind More. */
export function NewTask(props: {
  people: ReadonlyMap<string, string>;
  onCreated: (task: Task) => void;
  onCancel: () => void;
}) {
  const [title, setTitle] = useState('');
  const [due, setDue] = useState('');
  const [record, setRecord] = useState<PickedRecord | null>(null);
  const [status, setStatus] = useState<TaskStatus>('todo');
  const [category, setCategory] = useState<Category>('media_prep');
  const [priority, setPriority] = useState<Priority | ''>('');
  const [genus, setGenus] = useState('');
  const [assignee, setAssignee] = useState('');
  const [notes, setNotes] = useState('');
  const form = useApiForm({
    fields: [
      'title',
      'due_date',
      'entity_id',
      'entity_type',
      'workflow_status',
      'category',
      'priority',
      'genus',
      'assigned_to',
      'notes',
    ],
    send: (key) =>
      call(
        api.POST('/api/v1/tasks', {
          params: { header: { 'idempotency-key': key } },
          body: {
            title: title.trim(),
            workflow_status: status,
            category,
            ...(due ? { due_date: endOfDay(due) } : {}),
            ...(record ? { entity_type: record.type, entity_id: record.id } : {}),
            ...(priority ? { priority } : {}),
            ...(genus.trim() ? { genus: genus.trim() } : {}),
            ...(assignee ? { assigned_to: assignee } : {}),
            ...(notes.trim() ? { notes: notes.trim() } : {}),
          },
        }),
      ),
    onSuccess: props.onCreated,
  });
  return (
    <form class="form panel" aria-label={strings.title} onSubmit={(e) => void form.submit(e)}>
      <h2>{strings.title}</h2>
      <FormError message={form.formError} />
      <TextField
        name="title"
        label={strings.name}
        hint={strings.nameHint}
        error={form.errorFor('title')}
        value={title}
        required
        autocomplete="off"
        onInput={(event) => setTitle(event.currentTarget.value)}
      />
      <DateField
        name="due_date"
        label={strings.due}
        error={form.errorFor('due_date')}
        value={due}
        onInput={setDue}
      />
      <RecordPicker
        name="entity_id"
        label={strings.record}
        value={record}
        onChange={setRecord}
        error={form.errorFor('entity_id') ?? form.errorFor('entity_type')}
      />
      <More>
        <SelectField
          name="workflow_status"
          label={strings.status}
          error={form.errorFor('workflow_status')}
          options={TASK_STATUSES.map((s) => [s, STATUS_WORDS[s]] as const)}
          value={status}
          onChange={(value) => setStatus(value as TaskStatus)}
        />
        <SelectField
          name="category"
          label={strings.category}
          error={form.errorFor('category')}
          options={CATEGORIES.map((c) => [c, words(c)] as const)}
          value={category}
          onChange={(value) => setCategory(value as Category)}
        />
        <SelectField
          name="priority"
          label={strings.priority}
          error={form.errorFor('priority')}
          options={[['', strings.noPriority], ...PRIORITIES.map((p) => [p, p] as const)]}
          value={priority}
          onChange={(value) => setPriority(value as Priority | '')}
        />
        <TextField
          name="genus"
          label={strings.genus}
          hint={strings.genusHint}
          error={form.errorFor('genus')}
          value={genus}
          autocomplete="off"
          onInput={(event) => setGenus(event.currentTarget.value)}
        />
        <SelectField
          name="assigned_to"
          label={strings.assignee}
          error={form.errorFor('assigned_to')}
          options={[['', strings.nobody], ...props.people.entries()]}
          value={assignee}
          onChange={setAssignee}
        />
        <TextAreaField
          name="notes"
          label={strings.notes}
          error={form.errorFor('notes')}
          value={notes}
          onInput={(event) => setNotes(event.currentTarget.value)}
        />
      </More>
      <div class="actions">
        <button type="submit" class="button button-primary" disabled={form.busy}>
          {strings.save}
        </button>
        <button type="button" class="button button-quiet" onClick={props.onCancel}>
          {strings.cancel}
        </button>
      </div>
    </form>
  );
}
