import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, call, type Answer } from '../../api/client';
import { useSignedIn } from '../../api/session';
import { FormError } from '../../forms/fields';
import { useApiForm } from '../../forms/form';
import { useAnswer } from '../../ui/answer';
import { Confirm } from '../../ui/list';
import { More, Notice } from '../../ui/parts';
import { usePeopleNames } from '../../ui/people';
import { EvidenceList } from './evidence';
import {
  checkReading,
  rangeWords,
  skipReason,
  stepStates,
  type Evidence,
  type SopRun,
  type SopStep,
  type StepReading,
  type StepState,
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
  const states = stepStates(steps, events);
  const firstOpen = steps.findIndex((s) => states.get(s.id) === 'open');
  const [index, setIndex] = useState(firstOpen === -1 ? steps.length : firstOpen);
  const heading = useRef<HTMLHeadingElement>(null);
  const go = (next: number) => {
    setIndex(Math.max(0, Math.min(steps.length, next)));
  };
  // The step's heading takes the focus, so a screen reader reads the new step.
  // Before the step is painted, so a field of the new step tapped at once keeps the focus.
  const first = useRef(true);
  useLayoutEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    heading.current?.focus();
  }, [index]);
  const step = steps[index];
  return (
    <section class="runner" aria-label={strings.runner.runner}>
      <StepStrip steps={steps} states={states} index={index} onGo={go} />
      {step === undefined ? (
        <FinishPanel
          run={props.run}
          steps={steps}
          states={states}
          events={events}
          heading={heading}
          onGo={go}
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
  states: Map<string, StepState>;
  index: number;
  onGo: (index: number) => void;
}) {
  const mark = { done: '✓', skipped: '–' } as const;
  return (
    <nav class="step-strip" aria-label={strings.runner.stepsTitle}>
      <ol>
        {props.steps.map((step, i) => {
          const state = props.states.get(step.id) ?? 'open';
          const words = {
            done: strings.runner.stepDone,
            skipped: strings.runner.stepSkipped,
            open: strings.runner.stepOpen,
          }[state];
          return (
            <li key={step.id}>
              <button
                type="button"
                class={`step-dot step-dot-${state}`}
                aria-current={i === props.index ? 'step' : undefined}
                aria-label={`${strings.runner.stepOf(i + 1, props.steps.length)}, ${words}`}
                onClick={() => props.onGo(i)}
              >
                <span aria-hidden="true">{state === 'open' ? i + 1 : mark[state]}</span>
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
  const [skipProblem, setSkipProblem] = useState<string | null>(null);
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
        payload: { reason: reason.trim() },
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
        <div class={skipProblem ? 'field field-invalid' : 'field'}>
          <label for="skip-reason">{strings.runner.skipReason}</label>
          <p class="field-hint" id="skip-reason-hint">
            {strings.runner.skipReasonHint}
          </p>
          <input
            id="skip-reason"
            type="text"
            value={reason}
            maxLength={500}
            aria-invalid={skipProblem ? 'true' : undefined}
            aria-describedby={
              skipProblem ? 'skip-reason-hint skip-reason-error' : 'skip-reason-hint'
            }
            onInput={(event) => {
              setReason(event.currentTarget.value);
              setSkipProblem(null);
            }}
          />
          {skipProblem && (
            <p class="field-error" id="skip-reason-error" role="alert">
              {skipProblem}
            </p>
          )}
        </div>
        <button
          type="button"
          class="button button-large"
          disabled={skip.busy}
          onClick={() => {
            if (reason.trim() === '') return setSkipProblem(strings.runner.skipNeedsReason);
            void skip.submit();
          }}
        >
          {strings.runner.skip}
        </button>
      </More>
      <NoteForm run={run} step={step} onEvidence={props.onEvidence} />
      {props.events.length > 0 && (
        <section class="step-recorded" aria-label={strings.runner.recordedHere}>
          <h3>{strings.runner.recordedHere}</h3>
          <EvidenceList events={props.events} step={step} />
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
 * One reading the step asks for. A value outside the step's range is a deviation to
 * document, not a typing error: it is recorded as it is, marked out of range, with a
 * note saying what happened (asked for before it is sent). The API's refusal (another
 * unit) shows beside the same field.
 */
function ReadingForm(props: {
  run: SopRun;
  step: SopStep;
  reading: StepReading;
  onEvidence: (event: Evidence) => void;
}) {
  const { reading } = props;
  const [typed, setTyped] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [noteProblem, setNoteProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const noteBox = useRef<HTMLTextAreaElement>(null);
  const name = `reading-${reading.metric.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}`;
  const checked = checkReading(reading, typed);
  const outside = 'value' in checked ? checked.outside : null;
  const form = useApiForm<Evidence>({
    fields: [],
    send: (key) => {
      const value = 'value' in checked ? checked.value : NaN;
      return call(
        api.POST('/api/v1/sop-runs/{id}/steps/{stepId}/measurements', {
          params: {
            path: { id: props.run.id, stepId: props.step.id },
            header: { 'idempotency-key': key },
          },
          body: {
            metric: reading.metric,
            value,
            unit: reading.unit,
            ...(outside !== null && note.trim() !== '' ? { notes: note.trim() } : {}),
          },
        }),
      );
    },
    onSuccess: (event) => {
      setDone(
        outside !== null && 'value' in checked
          ? strings.reading.recorded(checked.value, reading.unit)
          : null,
      );
      setTyped('');
      setNote('');
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
        if ('problem' in checked) return setProblem(checked.problem);
        setProblem(null);
        if (checked.outside !== null && note.trim() === '') {
          setNoteProblem(strings.reading.needsNote);
          noteBox.current?.focus();
          return;
        }
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
            aria-invalid={error || outside ? 'true' : undefined}
            aria-describedby={[
              `${name}-hint`,
              error ? `${name}-error` : '',
              outside ? `${name}-outside` : '',
            ]
              .filter(Boolean)
              .join(' ')}
            onInput={(event) => {
              setTyped(event.currentTarget.value);
              setProblem(null);
              setDone(null);
              form.clear();
            }}
          />
          <span class="reading-unit" aria-hidden="true">
            {reading.unit}
          </span>
          {outside === null && (
            <button type="submit" class="button button-primary button-large" disabled={form.busy}>
              {strings.runner.recordReading(reading.metric)}
            </button>
          )}
        </div>
        {error && (
          <p class="field-error" id={`${name}-error`} role="alert">
            {error}
          </p>
        )}
        {done && (
          <p class="reading-done" role="status">
            {done}
          </p>
        )}
      </div>
      {outside !== null && 'value' in checked && (
        <div class="reading-outside" role="group" aria-label={outside}>
          <p id={`${name}-outside`}>
            <strong>▲ {outside}</strong> {strings.reading.deviation}
          </p>
          <div class={noteProblem ? 'field field-invalid' : 'field'}>
            <label for={`${name}-note`}>{strings.reading.note}</label>
            <p class="field-hint" id={`${name}-note-hint`}>
              {strings.reading.noteHint}
            </p>
            <textarea
              ref={noteBox}
              id={`${name}-note`}
              rows={2}
              maxLength={500}
              value={note}
              aria-invalid={noteProblem ? 'true' : undefined}
              aria-describedby={
                noteProblem ? `${name}-note-hint ${name}-note-error` : `${name}-note-hint`
              }
              onInput={(event) => {
                setNote(event.currentTarget.value);
                setNoteProblem(null);
              }}
            />
            {noteProblem && (
              <p class="field-error" id={`${name}-note-error`} role="alert">
                {noteProblem}
              </p>
            )}
          </div>
          <button type="submit" class="button button-primary button-large" disabled={form.busy}>
            {strings.reading.recordOutside(checked.value, reading.unit)}
          </button>
        </div>
      )}
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

/** One way to close the run: an outcome, with the notes typed. */
function useClose(
  closing: {
    run: SopRun;
    notes: string;
    setRefusal: (refused: boolean) => void;
    onClosed: (run: SopRun) => void;
  },
  outcome: 'completed' | 'failed' | 'cancelled',
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
          },
        }),
      );
      closing.setRefusal(!answer.ok && answer.failure.code === 'SOP_RUN_STEPS_INCOMPLETE');
      return answer;
    },
    onSuccess: closing.onClosed,
  });
}

/** Steps of the run in a list, each a way back to it. */
function StepLinks(props: {
  steps: SopStep[];
  all: SopStep[];
  line: (step: SopStep, n: number) => string;
  onGo: (index: number) => void;
}) {
  return (
    <ul class="finish-steps">
      {props.steps.map((step) => {
        const i = props.all.indexOf(step);
        return (
          <li key={step.id}>
            <button
              type="button"
              class="button button-quiet button-inline"
              aria-label={`${strings.runner.goTo(i + 1)}: ${step.instruction}`}
              onClick={() => props.onGo(i)}
            >
              {props.line(step, i + 1)}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Closing the run. Which steps have nothing recorded, and which were skipped and why,
 * is shown before anything is pressed; completing with steps not done asks first,
 * listing them. A lab that completes a run only with every step recorded
 * (`sop_runs_require_all_steps`) is said so up front, and its refusal explained in words.
 * Only the member who started the run, or a manager, may close it; anyone else is told.
 */
function FinishPanel(props: {
  run: SopRun;
  steps: SopStep[];
  states: Map<string, StepState>;
  events: Evidence[];
  heading: { current: HTMLHeadingElement | null };
  onGo: (index: number) => void;
  onClosed: (run: SopRun) => void;
}) {
  const { session, atLeast } = useSignedIn();
  const people = usePeopleNames();
  const settings = useAnswer(() => call(api.GET('/api/v1/lab-settings')));
  const [notes, setNotes] = useState('');
  const [refused, setRefusal] = useState(false);
  const [asking, setAsking] = useState(false);
  const { steps, states } = props;
  const missing = steps.filter((s) => states.get(s.id) === 'open');
  const skipped = steps.filter((s) => states.get(s.id) === 'skipped');
  const reasonOf = (step: SopStep) =>
    props.events
      .filter((e) => e.stepKey === step.id && e.eventType === 'skipped')
      .map(skipReason)
      .find((reason) => reason !== null) ?? null;
  const requireAll = settings?.ok === true && settings.data.sop_runs_require_all_steps;
  const mayClose = props.run.startedBy === session.member.id || atLeast('manager');
  const closing = { run: props.run, notes, setRefusal, onClosed: props.onClosed };
  const complete = useClose(closing, 'completed');
  const fail = useClose(closing, 'failed');
  const cancel = useClose(closing, 'cancelled');
  const busy = complete.busy || fail.busy || cancel.busy;
  const otherError =
    (refused ? null : complete.formError) ??
    fail.formError ??
    cancel.formError ??
    complete.errorFor('notes');
  const starter = props.run.startedBy === null ? null : (people?.get(props.run.startedBy) ?? null);
  return (
    <article class="step-card" aria-labelledby="step-heading">
      <h2 id="step-heading" class="step-instruction" tabIndex={-1} ref={props.heading}>
        {strings.runner.finishTitle}
      </h2>
      {missing.length === 0 && skipped.length === 0 && (
        <p class="step-notes">{strings.runner.allDone}</p>
      )}
      {missing.length > 0 && (
        <div class="finish-missing">
          <p class="step-notes">
            <strong>{strings.runner.notDone(missing.length, steps.length)}</strong>
          </p>
          <StepLinks
            steps={missing}
            all={steps}
            line={(step, n) => strings.runner.stepLine(n, step.instruction)}
            onGo={props.onGo}
          />
        </div>
      )}
      {skipped.length > 0 && (
        <div class="finish-skipped">
          <p class="step-notes">{strings.runner.skippedSteps(skipped.length)}</p>
          <StepLinks
            steps={skipped}
            all={steps}
            line={(step, n) => strings.runner.skippedLine(n, step.instruction, reasonOf(step))}
            onGo={props.onGo}
          />
        </div>
      )}
      {!mayClose ? (
        <Notice>{strings.runner.notYours(starter)}</Notice>
      ) : (
        <>
          {requireAll && missing.length > 0 && <Notice>{strings.runner.requireAll}</Notice>}
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
          {refused && <Notice tone="bad">{strings.runner.refusedAll}</Notice>}
          {asking ? (
            <Confirm
              label={strings.runner.confirmTitle}
              question={strings.runner.confirmQuestion(missing.length, steps.length)}
              yes={strings.runner.confirmYes(missing.length)}
              no={strings.runner.confirmNo}
              busy={busy}
              tone="primary"
              focus
              onYes={() => {
                setAsking(false);
                void complete.submit();
              }}
              onNo={() => setAsking(false)}
            >
              <ul class="finish-confirm-steps">
                {missing.map((step) => (
                  <li key={step.id}>
                    {strings.runner.stepLine(steps.indexOf(step) + 1, step.instruction)}
                  </li>
                ))}
              </ul>
            </Confirm>
          ) : (
            // Offered once the lab's settings are read, so it never shows and then goes.
            settings !== null &&
            !(requireAll && missing.length > 0) && (
              <div class="step-actions">
                <button
                  type="button"
                  class="button button-primary button-large"
                  disabled={busy}
                  onClick={() => {
                    setRefusal(false);
                    if (missing.length > 0) setAsking(true);
                    else void complete.submit();
                  }}
                >
                  {strings.runner.complete}
                </button>
              </div>
            )
          )}
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
              <button
                type="button"
                class="button"
                disabled={busy}
                onClick={() => void cancel.submit()}
              >
                {strings.runner.cancel}
              </button>
            </div>
          </More>
        </>
      )}
      <div class="step-nav">
        <button
          type="button"
          class="button button-large"
          onClick={() => props.onGo(steps.length - 1)}
        >
          ← {strings.runner.backToSteps}
        </button>
      </div>
    </article>
  );
}
