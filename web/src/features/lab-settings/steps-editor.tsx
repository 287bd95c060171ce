import { useState } from 'preact/hooks';
import type { Schemas } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { NumberField, TextAreaField, TextField } from '../../forms/fields';
import { countOf, textOf, useApiForm, type ApiForm } from '../../forms/form';
import type { Answer } from '../../api/client';
import { moved } from './model';
import { strings } from './strings';

type VersionStep = Schemas['SopVersionDetail']['steps'][number];
const s = strings.steps;

interface Reading {
  metric: string;
  unit: string;
  min: string;
  max: string;
}
interface StepDraft {
  id: string;
  instruction: string;
  safety: string;
  minutes: string;
  readings: Reading[];
}

/** A step as the API takes it (the import file's form). */
export interface StepInput {
  id: string;
  instruction: string;
  safety_warning?: string;
  estimated_minutes?: number;
  notes?: string;
  measurements: { metric: string; unit: string; min: number | null; max: number | null }[];
}

const text = (n: number | null) => (n === null ? '' : String(n));

function draftOf(step: VersionStep): StepDraft {
  return {
    id: step.id,
    instruction: step.instruction,
    safety: step.safetyWarning ?? '',
    minutes: text(step.estimatedMinutes),
    readings: step.measurements.map((m) => ({
      metric: m.metric,
      unit: m.unit,
      min: text(m.min),
      max: text(m.max),
    })),
  };
}

function inputOf(step: StepDraft, notes: string | null): StepInput {
  const minutes = countOf(step.minutes);
  const safety = textOf(step.safety);
  return {
    id: step.id,
    instruction: step.instruction.trim(),
    ...(safety !== undefined ? { safety_warning: safety } : {}),
    ...(minutes !== undefined ? { estimated_minutes: minutes } : {}),
    ...(notes ? { notes } : {}),
    measurements: step.readings.map((r) => ({
      metric: r.metric.trim(),
      unit: r.unit.trim(),
      min: countOf(r.min) ?? null,
      max: countOf(r.max) ?? null,
    })),
  };
}

/** A step id not yet used in the list: `step-<n>`. */
function freshId(steps: readonly StepDraft[]): string {
  const taken = new Set(steps.map((step) => step.id));
  let n = steps.length + 1;
  while (taken.has(`step-${n}`)) n += 1;
  return `step-${n}`;
}

const blankStep = (steps: readonly StepDraft[]): StepDraft => ({
  id: freshId(steps),
  instruction: '',
  safety: '',
  minutes: '',
  readings: [],
});

/**
 * The steps of an SOP version, edited in place: each step's instruction, safety note,
 * minutes and the readings it asks for (unit, range); steps added, moved, removed.
 * `send` takes the steps as the API takes them. The API's refusal of a step
 * (`steps[2].measurements[0].unit: …`) shows beside that step.
 */
export function StepsEditor<T>(props: {
  title: string;
  lead?: string;
  save: string;
  start: readonly VersionStep[];
  send: (steps: StepInput[], key: string) => Promise<Answer<T>>;
  onSaved: (data: T) => void;
  onCancel: () => void;
}) {
  const notes = new Map(props.start.map((step) => [step.id, step.notes]));
  const [steps, setSteps] = useState<StepDraft[]>(() =>
    props.start.length > 0 ? props.start.map(draftOf) : [blankStep([])],
  );
  const form = useApiForm({
    fields: ['steps'],
    send: (key) =>
      props.send(
        steps.map((step) => inputOf(step, notes.get(step.id) ?? null)),
        key,
      ),
    onSuccess: props.onSaved,
  });
  const change = (index: number, next: Partial<StepDraft>) =>
    setSteps(steps.map((step, i) => (i === index ? { ...step, ...next } : step)));
  return (
    <BenchForm
      panel
      title={props.title}
      lead={props.lead}
      save={props.save}
      form={form}
      onCancel={props.onCancel}
    >
      <ol class="stage-edit">
        {steps.map((step, index) => (
          <li key={step.id} class="stage-edit-row">
            <StepFields
              step={step}
              n={index + 1}
              last={index === steps.length - 1}
              form={form}
              onChange={(next) => change(index, next)}
              onMove={(by) => setSteps(moved(steps, index, by))}
              onRemove={() => setSteps(steps.filter((_, i) => i !== index))}
            />
          </li>
        ))}
      </ol>
      <div class="actions">
        <button type="button" class="button" onClick={() => setSteps([...steps, blankStep(steps)])}>
          {s.addStep}
        </button>
      </div>
    </BenchForm>
  );
}

function StepFields(props: {
  step: StepDraft;
  n: number;
  last: boolean;
  form: ApiForm<unknown>;
  onChange: (next: Partial<StepDraft>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { step, n } = props;
  const name = (field: string) => `steps-${n}-${field}`;
  const refusal = props.form.errorFor('steps');
  const here = refusal !== null && refusal.startsWith(`steps[${n - 1}]`) ? refusal : null;
  const reading = (i: number, next: Partial<Reading>) =>
    props.onChange({
      readings: step.readings.map((r, j) => (j === i ? { ...r, ...next } : r)),
    });
  return (
    <fieldset class="field step-edit">
      <legend>{s.legend(n)}</legend>
      {here && (
        <p class="field-error" role="alert">
          {here}
        </p>
      )}
      <TextAreaField
        name={name('instruction')}
        label={s.instruction}
        error={null}
        value={step.instruction}
        rows={2}
        onInput={(event) => props.onChange({ instruction: event.currentTarget.value })}
      />
      <TextField
        name={name('safety')}
        label={s.safety}
        hint={s.safetyHint}
        error={null}
        value={step.safety}
        onInput={(event) => props.onChange({ safety: event.currentTarget.value })}
      />
      <NumberField
        name={name('minutes')}
        label={s.minutes}
        error={null}
        value={step.minutes}
        onInput={(minutes) => props.onChange({ minutes })}
      />
      {step.readings.map((r, i) => (
        <fieldset class="field step-edit" key={i}>
          <legend>{s.reading(i + 1)}</legend>
          <p class="field-hint">{s.readingHint}</p>
          <div class="field-pair reading-grid">
            <TextField
              name={name(`metric-${i}`)}
              label={s.metric}
              error={null}
              value={r.metric}
              onInput={(event) => reading(i, { metric: event.currentTarget.value })}
            />
            <TextField
              name={name(`unit-${i}`)}
              label={s.unit}
              error={null}
              value={r.unit}
              onInput={(event) => reading(i, { unit: event.currentTarget.value })}
            />
            <NumberField
              name={name(`min-${i}`)}
              label={s.min}
              error={null}
              value={r.min}
              onInput={(min) => reading(i, { min })}
            />
            <NumberField
              name={name(`max-${i}`)}
              label={s.max}
              error={null}
              value={r.max}
              onInput={(max) => reading(i, { max })}
            />
          </div>
          <button
            type="button"
            class="button button-quiet"
            onClick={() => props.onChange({ readings: step.readings.filter((_, j) => j !== i) })}
          >
            {s.removeMeasurement(i + 1)}
          </button>
        </fieldset>
      ))}
      <div class="actions">
        <button
          type="button"
          class="button"
          onClick={() =>
            props.onChange({
              readings: [...step.readings, { metric: '', unit: '', min: '', max: '' }],
            })
          }
        >
          {s.addMeasurement}
        </button>
        <button type="button" class="button" disabled={n === 1} onClick={() => props.onMove(-1)}>
          {s.up(n)}
        </button>
        <button type="button" class="button" disabled={props.last} onClick={() => props.onMove(1)}>
          {s.down(n)}
        </button>
        <button type="button" class="button button-quiet" onClick={props.onRemove}>
          {s.removeStep(n)}
        </button>
      </div>
    </fieldset>
  );
}
