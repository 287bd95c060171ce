import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, type Answer } from '../../api/client';
import { FormError } from '../../forms/fields';
import { useApiForm } from '../../forms/form';
import { More } from '../../ui/parts';
import { EvidenceList } from './evidence';
import {
  checkReading,
  rangeWords,
  type Evidence,
  type SopRun,
  type SopStep,
  type StepReading,
} from './model';
import { strings } from './strings';

/**
 * The bench runner of an open run: one step at a time in large type, big targets
 * for a gloved hand. Opens at the first step with nothing recorded (a run left
 * open carries on where it stopped).
 */
export function Runner(props: {
  run: SopRun;
  steps: SopStep[];
  events: Evidence[];
  onEvidence: (event: Evidence) => void;
  onClosed: (run: SopRun) => void;
}) {
  const { steps, events } = props;
  const worked = new Set(events.map((e) => e.stepKey));
  const firstOpen = steps.findIndex((s) => !worked.has(s.id));
  const [index, setIndex] = useState(firstOpen === -1 ? steps.length : firstOpen);
  const heading = useRef<HTMLHeadingElement>(null);
  const go = (next: number) => {
    setIndex(Math.max(0, Math.min(steps.length, next)));
  };
  // The step's heading takes the focus, so a screen reader reads the new step.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    heading.current?.focus();
  }, [index]);
  const step = steps[index];
  return (
    <section class="runner" aria-label={strings.runner.runner}>
      <StepStrip steps={steps} worked={worked} index={index} onGo={go} />
      {step === undefined ? (
        <FinishPanel
          run={props.run}
          steps={steps}
          worked={worked}
          heading={heading}
          onBack={() => go(steps.length - 1)}
          onClosed={props.onClosed}
        />
      ) : (
        <StepCard
          key={step.id}
          run={props.run}
          step={step}
          index={index}
          total={steps.length}
          heading={heading}
          events={events.filter((e) => e.stepKey === step.id)}
          onEvidence={props.onEvidence}
          onGo={go}
        />
      )}
    </section>
  );
}

function StepStrip(props: {
  steps: SopStep[];
  worked: Set<string>;
  index: number;
  onGo: (index: number) => void;
}) {
  return (
    <nav class="step-strip" aria-label={strings.runner.stepsTitle}>
      <ol>
        {props.steps.map((step, i) => {
          const done = props.worked.has(step.id);
          return (
            <li key={step.id}>
              <button
                type="button"
                class={`step-dot${done ? ' step-dot-done' : ''}`}
                aria-current={i === props.index ? 'step' : undefined}
                aria-label={`${strings.runner.stepOf(i + 1, props.steps.length)}, ${done ? strings.runner.stepDone : strings.runner.stepOpen}`}
                onClick={() => props.onGo(i)}
              >
                <span aria-hidden="true">{done ? '✓' : i + 1}</span>
              </button>
            </li>
          );
        })}
        <li>
          <button
            type="button"
            class="step-dot step-dot-finish"
            aria-current={props.index === props.steps.length ? 'step' : undefined}
            onClick={() => props.onGo(props.steps.length)}
          >
            {strings.runner.finish}
          </button>
        </li>
      </ol>
    </nav>
  );
}

function stepEvent(
  runId: string,
  stepId: string,
  key: string,
  body: {
    event_type: 'confirmed' | 'skipped' | 'note';
    payload?: Record<string, string | number | boolean | null>;
  },
): Promise<Answer<Evidence>> {
  return call(
    api.POST('/api/v1/sop-runs/{id}/steps/{stepId}/events', {
      params: { path: { id: runId, stepId }, header: { 'idempotency-key': key } },
      body,
    }),
  );
}

function StepCard(props: {
  run: SopRun;
  step: SopStep;
  index: number;
  total: number;
  heading: { current: HTMLHeadingElement | null };
  events: Evidence[];
  onEvidence: (event: Evidence) => void;
  onGo: (index: number) => void;
}) {
  const { run, step, index, total } = props;
  const [reason, setReason] = useState('');
  const confirm = useApiForm({
    fields: [],
    send: (key) => stepEvent(run.id, step.id, key, { event_type: 'confirmed' }),
    onSuccess: (event) => {
      props.onEvidence(event);
      props.onGo(index + 1);
    },
  });
  const skip = useApiForm({
    fields: [],
    send: (key) =>
      stepEvent(run.id, step.id, key, {
        event_type: 'skipped',
        ...(reason.trim() === '' ? {} : { payload: { reason: reason.trim() } }),
      }),
    onSuccess: (event) => {
      props.onEvidence(event);
      props.onGo(index + 1);
    },
  });
  return (
    <article class="step-card" aria-labelledby="step-heading">
      <p class="step-count">{strings.runner.stepOf(index + 1, total)}</p>
      <h2 id="step-heading" class="step-instruction" tabIndex={-1} ref={props.heading}>
        {step.instruction}
      </h2>
      {step.safetyWarning && (
        <p class="step-safety" role="note">
          <strong>⚠ {strings.runner.safety}:</strong> {step.safetyWarning}
        </p>
      )}
      {step.notes && <p class="step-notes">{step.notes}</p>}
      {step.estimatedMinutes !== null && (
        <p class="muted">{strings.runner.minutes(step.estimatedMinutes)}</p>
      )}
      {step.measurements.map((reading) => (
        <ReadingForm
          key={reading.metric}
          run={run}
          step={step}
          reading={reading}
          onEvidence={props.onEvidence}
        />
      ))}
      <FormError message={confirm.formError ?? skip.formError} />
      <div class="step-actions">
        <button
          type="button"
          class="button button-primary button-large"
          disabled={confirm.busy}
          onClick={() => void confirm.submit()}
        >
          {index + 1 === total ? strings.runner.doneLast : strings.runner.done}
        </button>
      </div>
      <PhotoForm run={run} step={step} onEvidence={props.onEvidence} />
      <More label={strings.runner.skip}>
        <div class="field">
          <label for="skip-reason">{strings.runner.skipReason}</label>
          <input
            id="skip-reason"
            type="text"
            value={reason}
            maxLength={500}
            onInput={(event) => setReason(event.currentTarget.value)}
          />
        </div>
        <button
          type="button"
          class="button button-large"
          disabled={skip.busy}
          onClick={() => void skip.submit()}
        >
          {strings.runner.skip}
        </button>
      </More>
      <NoteForm run={run} step={step} onEvidence={props.onEvidence} />
      {props.events.length > 0 && (
        <section class="step-recorded" aria-label={strings.runner.recordedHere}>
          <h3>{strings.runner.recordedHere}</h3>
          <EvidenceList events={props.events} />
        </section>
      )}
      <div class="step-nav">
        <button
          type="button"
          class="button button-large"
          disabled={index === 0}
          onClick={() => props.onGo(index - 1)}
        >
          ← {strings.runner.back}
        </button>
        <button type="button" class="button button-large" onClick={() => props.onGo(index + 1)}>
          {index + 1 === total ? strings.runner.finish : strings.runner.next} →
        </button>
      </div>
    </article>
  );
}

/**
 * One reading the step asks for: checked against its range before it is sent;
 * the API's own refusal, if it still refuses, shown beside the same field.
 */
function ReadingForm(props: {
  run: SopRun;
  step: SopStep;
  reading: StepReading;
  onEvidence: (event: Evidence) => void;
}) {
  const { reading } = props;
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const name = `reading-${reading.metric.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}`;
  const form = useApiForm<Evidence>({
    fields: [],
    send: (key) => {
      const checked = checkReading(reading, typed);
      const value = 'value' in checked ? checked.value : NaN;
      return call(
        api.POST('/api/v1/sop-runs/{id}/steps/{stepId}/measurements', {
          params: {
            path: { id: props.run.id, stepId: props.step.id },
            header: { 'idempotency-key': key },
          },
          body: { metric: reading.metric, value, unit: reading.unit },
        }),
      );
    },
    onSuccess: (event) => {
      setTyped('');
      props.onEvidence(event);
    },
  });
  // This operation's refusals name no field: the only field here is the value.
  const error = problem ?? form.formError;
  return (
    <form
      class="reading"
      aria-label={strings.runner.recordReading(reading.metric)}
      onSubmit={(event) => {
        event.preventDefault();
        const checked = checkReading(reading, typed);
        if ('problem' in checked) return setProblem(checked.problem);
        setProblem(null);
        void form.submit();
      }}
    >
      <div class={error ? 'field field-invalid' : 'field'}>
        <label for={name}>{strings.runner.readingLabel(reading.metric, reading.unit)}</label>
        <p class="field-hint" id={`${name}-hint`}>
          {strings.runner.readingHint(rangeWords(reading), reading.unit)}
        </p>
        <div class="reading-input">
          <input
            id={name}
            type="text"
            inputMode="decimal"
            autocomplete="off"
            value={typed}
            aria-invalid={error ? 'true' : undefined}
            aria-describedby={error ? `${name}-hint ${name}-error` : `${name}-hint`}
            onInput={(event) => {
              setTyped(event.currentTarget.value);
              setProblem(null);
              form.clear();
            }}
          />
          <span class="reading-unit" aria-hidden="true">
            {reading.unit}
          </span>
          <button type="submit" class="button button-primary button-large" disabled={form.busy}>
            {strings.runner.recordReading(reading.metric)}
          </button>
        </div>
        {error && (
          <p class="field-error" id={`${name}-error`} role="alert">
            {error}
          </p>
        )}
      </div>
    </form>
  );
}

/** A photo made smaller in the browser (a tablet's camera gives megabytes), as a JPEG data URL. */
async function shrink(file: File): Promise<string> {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, 1600 / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return canvas.toDataURL('image/jpeg', 0.85);
  } catch {
    return await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.onerror = () => reject(new Error('unreadable'));
      reader.readAsDataURL(file);
    });
  }
}

/**
 * A photo for the step: stored as an asset of the run's record (its plant or
 * explant; the SOP when the run has none), then pointed to from the step's
 * trail by a note, so the run lists it where it was taken.
 */
function PhotoForm(props: { run: SopRun; step: SopStep; onEvidence: (event: Evidence) => void }) {
  const image = useRef<string | null>(null);
  const fileName = useRef('photo.jpg');
  const { run, step } = props;
  const target = run.explantId
    ? ({ target: 'explant', target_id: run.explantId } as const)
    : run.plantId
      ? ({ target: 'plant', target_id: run.plantId } as const)
      : ({ target: 'sop', target_id: run.sopId ?? '' } as const);
  const form = useApiForm<Evidence>({
    fields: ['image_base64', 'filename', 'caption'],
    send: async (key) => {
      const caption = strings.runner.photoCaption(step.id, step.instruction).slice(0, 500);
      const asset = await call(
        api.POST('/api/v1/assets', {
          params: { header: { 'idempotency-key': key } },
          body: {
            ...target,
            image_base64: image.current ?? '',
            filename: fileName.current,
            caption,
          },
        }),
      );
      if (!asset.ok) return asset;
      return stepEvent(run.id, step.id, `${key}-note`, {
        event_type: 'note',
        payload: { asset_id: asset.data.id, kind: 'photo' },
      });
    },
    onSuccess: props.onEvidence,
  });
  const id = `photo-${step.id}`;
  return (
    <div class="field step-photo">
      <label for={id} class="button button-large">
        {strings.runner.photo}
      </label>
      <input
        id={id}
        class="visually-hidden"
        type="file"
        accept="image/*"
        capture="environment"
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          const input = event.currentTarget;
          const file = input.files?.[0];
          if (!file) return;
          fileName.current = file.name.replace(/\.[^.]*$/, '') + '.jpg';
          void shrink(file).then((data) => {
            image.current = data;
            input.value = '';
            return form.submit();
          });
        }}
      />
      <p class="field-hint" id={`${id}-hint`}>
        {form.busy ? strings.runner.photoSending : strings.runner.photoHint}
      </p>
      {form.formError && (
        <p class="field-error" role="alert">
          {form.formError}
        </p>
      )}
      {(form.errorFor('image_base64') ?? form.errorFor('filename')) && (
        <p class="field-error" role="alert">
          {form.errorFor('image_base64') ?? form.errorFor('filename')}
        </p>
      )}
    </div>
  );
}

function NoteForm(props: { run: SopRun; step: SopStep; onEvidence: (event: Evidence) => void }) {
  const [text, setText] = useState('');
  const form = useApiForm<Evidence>({
    fields: ['payload'],
    send: (key) =>
      stepEvent(props.run.id, props.step.id, key, {
        event_type: 'note',
        payload: { text: text.trim() },
      }),
    onSuccess: (event) => {
      setText('');
      props.onEvidence(event);
    },
  });
  const id = `note-${props.step.id}`;
  return (
    <More label={strings.runner.note}>
      <form class="form" onSubmit={(event) => void form.submit(event)}>
        <FormError message={form.formError ?? form.errorFor('payload')} />
        <div class="field">
          <label for={id}>{strings.runner.note}</label>
          <textarea
            id={id}
            rows={3}
            maxLength={2000}
            value={text}
            onInput={(event) => setText(event.currentTarget.value)}
          />
        </div>
        <button
          type="submit"
          class="button button-large"
          disabled={form.busy || text.trim() === ''}
        >
          {strings.runner.noteSave}
        </button>
      </form>
    </More>
  );
}

/** One way to close the run (an outcome, with or without `allow_incomplete_steps`). */
function useClose(
  closing: {
    run: SopRun;
    notes: string;
    setRefusal: (words: string) => void;
    onClosed: (run: SopRun) => void;
  },
  outcome: 'completed' | 'failed' | 'cancelled',
  anyway: boolean,
) {
  return useApiForm<SopRun>({
    fields: ['notes', 'outcome'],
    send: async (key) => {
      const answer = await call(
        api.POST('/api/v1/sop-runs/{id}/complete', {
          params: { path: { id: closing.run.id }, header: { 'idempotency-key': key } },
          body: {
            outcome,
            ...(closing.notes.trim() === '' ? {} : { notes: closing.notes.trim() }),
            ...(anyway ? { allow_incomplete_steps: true } : {}),
          },
        }),
      );
      if (!answer.ok && answer.failure.code === 'SOP_RUN_STEPS_INCOMPLETE') {
        closing.setRefusal(answer.failure.error);
      }
      return answer;
    },
    onSuccess: closing.onClosed,
  });
}

/**
 * Completing the run. With steps not done the API refuses (409
 * SOP_RUN_STEPS_INCOMPLETE); the refusal is shown in its words, and completing
 * anyway is a separate, explicit button that sends `allow_incomplete_steps`.
 */
function FinishPanel(props: {
  run: SopRun;
  steps: SopStep[];
  worked: Set<string>;
  heading: { current: HTMLHeadingElement | null };
  onBack: () => void;
  onClosed: (run: SopRun) => void;
}) {
  const [notes, setNotes] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const missing = props.steps.filter((s) => !props.worked.has(s.id));
  const closing = { run: props.run, notes, setRefusal, onClosed: props.onClosed };
  const complete = useClose(closing, 'completed', false);
  const anyway = useClose(closing, 'completed', true);
  const fail = useClose(closing, 'failed', false);
  const cancel = useClose(closing, 'cancelled', false);
  const busy = complete.busy || anyway.busy || fail.busy || cancel.busy;
  const otherError =
    (refusal === null ? complete.formError : null) ??
    anyway.formError ??
    fail.formError ??
    cancel.formError ??
    complete.errorFor('notes');
  return (
    <article class="step-card" aria-labelledby="step-heading">
      <h2 id="step-heading" class="step-instruction" tabIndex={-1} ref={props.heading}>
        {strings.runner.finishTitle}
      </h2>
      {missing.length === 0 ? (
        <p class="step-notes">{strings.runner.allDone}</p>
      ) : (
        <p class="step-notes">
          {strings.runner.notDone(missing.length, props.steps.length)}
          {missing.map((s) => `${props.steps.indexOf(s) + 1}`).join(', ')}.
        </p>
      )}
      <div class="field">
        <label for="field-notes">{strings.runner.notes}</label>
        <textarea
          id="field-notes"
          rows={3}
          maxLength={1000}
          value={notes}
          onInput={(event) => setNotes(event.currentTarget.value)}
        />
      </div>
      <FormError message={otherError} />
      {refusal !== null && (
        <div class="confirm" role="alert">
          <p>
            <strong>{strings.runner.refused}</strong> {refusal}
          </p>
          <div class="actions">
            <button
              type="button"
              class="button button-large button-danger"
              disabled={busy}
              onClick={() => void anyway.submit()}
            >
              {strings.runner.completeAnyway(missing.length)}
            </button>
          </div>
        </div>
      )}
      <div class="step-actions">
        <button
          type="button"
          class="button button-primary button-large"
          disabled={busy}
          onClick={() => {
            setRefusal(null);
            void complete.submit();
          }}
        >
          {strings.runner.complete}
        </button>
      </div>
      <More label={strings.runner.failOrCancel}>
        <div class="actions">
          <button
            type="button"
            class="button button-danger"
            disabled={busy}
            onClick={() => void fail.submit()}
          >
            {strings.runner.fail}
          </button>
          <button type="button" class="button" disabled={busy} onClick={() => void cancel.submit()}>
            {strings.runner.cancel}
          </button>
        </div>
      </More>
      <div class="step-nav">
        <button type="button" class="button button-large" onClick={props.onBack}>
          ← {strings.runner.backToSteps}
        </button>
      </div>
    </article>
  );
}
