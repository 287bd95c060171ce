import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, DateField, SelectField, TextAreaField, TextField } from '../../forms/fields';
import { given, textOf, useApiForm, useFormValues } from '../../forms/form';
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
import { words } from '../../ui/words';
import type { PeopleNames } from '../../ui/people';
import { strings } from './strings';

/** The form that creates a task: a title is all the API needs; the rest is behind More. */
export function NewTask(props: {
  people: PeopleNames;
  onCreated: (task: Task) => void;
  onCancel: () => void;
}) {
  const values = useFormValues({
    title: '',
    due_date: '',
    workflow_status: 'todo',
    category: 'media_prep',
    priority: '',
    genus: '',
    assigned_to: '',
    notes: '',
  });
  const v = values.now;
  const [record, setRecord] = useState<PickedRecord | null>(null);
  const form = useApiForm({
    fields: [...values.names, 'entity_id', 'entity_type'],
    send: (key) =>
      call(
        api.POST('/api/v1/tasks', {
          params: { header: { 'idempotency-key': key } },
          body: {
            title: v.title.trim(),
            workflow_status: v.workflow_status as TaskStatus,
            category: v.category as Category,
            ...given({
              due_date: v.due_date ? endOfDay(v.due_date) : undefined,
              entity_type: record?.type,
              entity_id: record?.id,
              priority: (v.priority as Priority | '') || undefined,
              genus: textOf(v.genus),
              assigned_to: v.assigned_to || undefined,
              notes: textOf(v.notes),
            }),
          },
        }),
      ),
    onSuccess: props.onCreated,
  });
  const field = bindFields(form, values);
  return (
    <BenchForm
      panel
      title={strings.newTask.title}
      save={strings.newTask.save}
      form={form}
      onCancel={props.onCancel}
    >
      <TextField
        {...field.text('title')}
        label={strings.newTask.name}
        hint={strings.newTask.nameHint}
        required
        autocomplete="off"
        maxLength={300}
      />
      <DateField {...field.value('due_date')} label={strings.newTask.due} />
      <RecordPicker
        name="entity_id"
        label={strings.newTask.record}
        value={record}
        onChange={setRecord}
        error={form.errorFor('entity_id') ?? form.errorFor('entity_type')}
      />
      <More>
        <SelectField
          {...field.select('workflow_status')}
          label={strings.newTask.status}
          options={TASK_STATUSES.map((s) => [s, STATUS_WORDS[s]] as const)}
        />
        <SelectField
          {...field.select('category')}
          label={strings.newTask.category}
          options={CATEGORIES.map((c) => [c, words(c)] as const)}
        />
        <SelectField
          {...field.select('priority')}
          label={strings.newTask.priority}
          options={[['', strings.newTask.noPriority], ...PRIORITIES.map((p) => [p, p] as const)]}
        />
        <TextField
          {...field.text('genus')}
          label={strings.newTask.genus}
          hint={strings.newTask.genusHint}
          autocomplete="off"
          maxLength={100}
        />
        <SelectField
          {...field.select('assigned_to')}
          label={strings.newTask.assignee}
          options={[
            ['', strings.newTask.nobody],
            ...(props.people ?? new Map<string, string>()).entries(),
          ]}
        />
        <TextAreaField {...field.text('notes')} label={strings.newTask.notes} maxLength={5000} />
      </More>
    </BenchForm>
  );
}
