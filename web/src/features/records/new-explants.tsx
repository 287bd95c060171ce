import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call, type Schemas } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, NumberField, SelectField, TextAreaField, TextField } from '../../forms/fields';
import {
  countOf,
  given,
  hasError,
  textOf,
  useApiBatch,
  useApiForm,
  useFormValues,
  type ApiForm,
  type FormValues,
} from '../../forms/form';
import { useAnswer } from '../../ui/answer';
import { recordHref } from '../../ui/links';
import { More, Notice } from '../../ui/parts';
import { MediaBatchField, useBatchOptions } from '../media/picker';
import { CustomInputs, customFieldsOf, emptyCustomValues } from './custom-inputs';
import { nextNumber, numberedLabels, plantCode } from './explant-labels';
import { useLabLists, type LabLists } from './lab-lists';
import { useRecordPage } from './page/context';
import { strings } from './strings';

type Plant = Schemas['Plant'];
type Explant = Schemas['Explant'];

/** The most explants one initiation makes. */
export const MAX_INITIATED = 50;

const s = strings.newExplants;

/** What both explant forms ask, by the API's names (POST /explants). */
const SHARED = {
  initial_stage: '',
  room_id: '',
  initial_count: '',
  plantlet_count: '',
  media_batch_id: '',
  batch_number: '',
  notes: '',
};
type Shared = keyof typeof SHARED;

/** The form once the lab's explant stages, rooms and own fields, and the plant's labels, are read. */
function Loading(props: {
  plant: Plant;
  children: (lists: LabLists, labels: readonly (string | null)[]) => ComponentChildren;
}) {
  const lists = useLabLists('explant');
  const explants = useAnswer(
    () =>
      call(
        api.GET('/api/v1/explants', {
          params: { query: { plant_id: props.plant.id, limit: 200 } },
        }),
      ),
    [props.plant.id],
  );
  if (lists === null || explants === null) return <p class="muted">{strings.loading}</p>;
  if ('failure' in lists) return <Notice tone="bad">{lists.failure.error}</Notice>;
  if (!explants.ok) return <Notice tone="bad">{explants.failure.error}</Notice>;
  const labels = explants.data.map((explant) => explant.label);
  return <>{props.children(lists.lists, labels)}</>;
}

/** The request's members both forms send, from what they hold. */
function explantBody(
  plant: Plant,
  v: Readonly<Record<Shared, string>>,
  lists: LabLists,
  custom: Readonly<Record<string, string>>,
) {
  return {
    plant_id: plant.id,
    ...given({
      initial_stage: v.initial_stage || undefined,
      // The room of the first stage, so only with one.
      room_id: (v.initial_stage && v.room_id) || undefined,
      initial_count: countOf(v.initial_count),
      plantlet_count: countOf(v.plantlet_count),
      media_batch_id: v.media_batch_id || undefined,
      batch_number: textOf(v.batch_number),
      notes: textOf(v.notes),
      custom_fields: customFieldsOf(lists.fields, custom),
    }),
  };
}

/** Stage, room, counts and batch up front; notes and the lab's own fields behind More. */
function ExplantFields<K extends string>(props: {
  lists: LabLists;
  form: ApiForm<unknown>;
  values: FormValues<K | Shared>;
  custom: FormValues<string>;
  each: boolean;
}) {
  const { lists, form, each } = props;
  const field = bindFields(form, props.values);
  const batches = useBatchOptions();
  return (
    <>
      <div class="field-pair field-pair-wide">
        <SelectField
          {...field.select('initial_stage')}
          label={s.stage}
          options={lists.stages.map((stage) => [stage.key, stage.name] as const)}
        />
        <SelectField
          {...field.select('room_id')}
          label={s.room}
          options={[['', s.noRoom], ...lists.rooms.map((room) => [room.id, room.name] as const)]}
        />
      </div>
      <div class="field-pair">
        <NumberField
          {...field.value('initial_count')}
          label={each ? s.vesselsEach : s.vessels}
          hint={s.countHint}
        />
        <NumberField
          {...field.value('plantlet_count')}
          label={each ? s.plantletsEach : s.plantlets}
          hint={s.countHint}
        />
      </div>
      <MediaBatchField {...field.select('media_batch_id')} options={batches} />
      <TextField
        {...field.text('batch_number')}
        label={s.batch}
        hint={s.batchHint}
        autocomplete="off"
        maxLength={100}
      />
      <More label={s.more} open={hasError(form, ['notes', ...props.custom.names])}>
        <CustomInputs fields={lists.fields} form={form} values={props.custom} />
        <TextAreaField {...field.text('notes')} label={s.notes} maxLength={5000} />
      </More>
    </>
  );
}

const firstStage = (lists: LabLists) => lists.stages[0]?.key ?? '';

/** New explant: one explant of this plant (POST /explants), then its page. */
export function NewExplant(props: { plant: Plant; onCancel: () => void }) {
  return (
    <Loading plant={props.plant}>
      {(lists, labels) => <NewExplantForm {...props} lists={lists} labels={labels} />}
    </Loading>
  );
}

/** What each explant form works from: the plant, the lab's lists, the plant's explants' labels. */
interface FormProps {
  plant: Plant;
  lists: LabLists;
  labels: readonly (string | null)[];
  onCancel: () => void;
}

function NewExplantForm(props: FormProps) {
  const { plant, lists } = props;
  const { route } = useLocation();
  const code = plantCode(plant);
  const values = useFormValues({
    label: numberedLabels(code, nextNumber(code, props.labels), 1)[0]!,
    ...SHARED,
    initial_stage: firstStage(lists),
  });
  const custom = useFormValues(emptyCustomValues(lists.fields));
  const v = values.now;
  const form = useApiForm({
    fields: [...values.names, ...custom.names],
    send: (key) =>
      call(
        api.POST('/api/v1/explants', {
          params: { header: { 'idempotency-key': key } },
          body: { label: v.label.trim(), ...explantBody(plant, v, lists, custom.now) },
        }),
      ),
    onSuccess: (explant) => route(recordHref.explant(explant.id)),
  });
  const field = bindFields(form, values);
  return (
    <BenchForm noValidate title={s.oneTitle} save={s.saveOne} form={form} onCancel={props.onCancel}>
      <TextField
        {...field.text('label')}
        label={s.label}
        hint={s.labelHint}
        required
        autocomplete="off"
        maxLength={200}
      />
      <ExplantFields lists={lists} form={form} values={values} custom={custom} each={false} />
    </BenchForm>
  );
}

/** Initiate explants: N explants of this plant at once, labelled `<code>-01…`. */
export function InitiateExplants(props: { plant: Plant; onCancel: () => void }) {
  return (
    <Loading plant={props.plant}>
      {(lists, labels) => <InitiateForm {...props} lists={lists} labels={labels} />}
    </Loading>
  );
}

/** How many explants the form asks for, or why that is no number it can make. */
function howMany(text: string): number | string {
  const n = Number(text.trim());
  return Number.isInteger(n) && n >= 1 && n <= MAX_INITIATED ? n : s.howHint(MAX_INITIATED);
}

function InitiateForm(props: FormProps) {
  const { plant, lists } = props;
  const page = useRecordPage();
  const values = useFormValues({
    count: '',
    code: plantCode(plant),
    from: '',
    ...SHARED,
    initial_stage: firstStage(lists),
  });
  const custom = useFormValues(emptyCustomValues(lists.fields));
  const v = values.now;
  const code = v.code.trim();
  const next = nextNumber(code, props.labels);
  const from = countOf(v.from) ?? next;
  const count = howMany(v.count);
  // What the form itself checks (the API never sees them), said once Make was pressed.
  const [checked, setChecked] = useState(false);
  const wrong: Partial<Record<string, string>> = {
    ...(typeof count === 'string' ? { count } : {}),
    ...(code === '' ? { code: s.codeMissing } : {}),
    ...(Number.isInteger(from) && from >= 0 ? {} : { from: s.fromWrong }),
  };
  const labels =
    typeof count === 'number' && wrong.code === undefined && wrong.from === undefined
      ? numberedLabels(code, from, count)
      : null;
  // The labels sent, fixed once the first is made: the rest are sent as the first were.
  const sending = useRef<readonly string[]>([]);
  const sent = sending.current;
  const madeSoFar = useRef(0);
  const batch = useApiBatch<Explant>({
    fields: [...values.names, ...custom.names, 'label'],
    total: () => sending.current.length,
    send: async (index, key) => {
      const answer = await call(
        api.POST('/api/v1/explants', {
          params: { header: { 'idempotency-key': key } },
          body: { label: sending.current[index]!, ...explantBody(plant, v, lists, custom.now) },
        }),
      );
      if (answer.ok) madeSoFar.current += 1;
      return answer;
    },
    onSuccess: (made) =>
      page.saved(s.done(made.length, made[0]?.label ?? '', made.at(-1)?.label ?? '')),
  });
  const made = batch.made.filter((explant): explant is Explant => explant !== null);
  const started = made.length > 0;
  const failedLabel = batch.failedAt === null ? null : (sent[batch.failedAt] ?? null);
  // The refusal says which explant it stopped at; a field's error stays beside its field.
  const form: ApiForm<unknown> = {
    ...batch,
    formError:
      batch.formError !== null && failedLabel !== null
        ? s.refused(failedLabel, batch.formError)
        : batch.formError,
    errorFor: (name) =>
      checked && wrong[name] !== undefined ? `${name}: ${wrong[name]}` : batch.errorFor(name),
    submit: async () => {
      if (!started) {
        setChecked(true);
        if (labels === null) return null;
        sending.current = labels;
      }
      const all = await batch.submit();
      // Stopped after some were made: the plant's list shows them already.
      if (all === null && madeSoFar.current > 0) {
        page.changed(s.progress(madeSoFar.current, sending.current.length));
      }
      return all;
    },
  };
  const field = bindFields(form, values);
  const notMade = sent.filter((_, i) => batch.made[i] == null);
  const save = started ? s.resume(notMade.length) : s.saveMany(labels?.length ?? 0);
  return (
    <BenchForm
      noValidate
      title={s.manyTitle}
      lead={s.manyLead}
      save={save}
      form={form}
      onCancel={() =>
        // Some were made: the plant's list reads them, the form closes.
        started ? page.saved(s.progress(made.length, sent.length)) : props.onCancel()
      }
    >
      <fieldset class="form-group" disabled={started || batch.busy}>
        <legend class="visually-hidden">{s.manyTitle}</legend>
        <NumberField {...field.value('count')} label={s.how} hint={s.howHint(MAX_INITIATED)} />
        <div class="field-pair">
          <TextField
            {...field.text('code')}
            label={s.code}
            hint={s.codeHint}
            autocomplete="off"
            maxLength={190}
          />
          <NumberField {...field.value('from')} label={s.from} hint={s.fromHint(next)} />
        </div>
        <p class="batch-labels" aria-live="polite">
          {labels !== null
            ? s.labels(labels[0]!, labels.at(-1)!, labels.length)
            : typeof count === 'string'
              ? s.labelsUnknown
              : s.labelsNoCode}
        </p>
        <ExplantFields lists={lists} form={form} values={values} custom={custom} each />
      </fieldset>
      {/* Always there, so the button stays where it was pressed while the count grows. */}
      <p class="batch-progress" role="status">
        {batch.busy || started ? s.progress(made.length, sent.length) : ''}
      </p>
      {started && batch.failedAt !== null && (
        <div class="batch-report">
          <p>
            <strong>{s.made}:</strong>{' '}
            {made.map((explant, i) => (
              <span key={explant.id}>
                {i > 0 && ', '}
                <a href={recordHref.explant(explant.id)}>{explant.label}</a>
              </span>
            ))}
          </p>
          <p>
            <strong>{s.notMade}:</strong> {notMade.join(', ')}
          </p>
          <p class="muted">{s.retry}</p>
        </div>
      )}
    </BenchForm>
  );
}
