import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import type { FormValues } from './form';
import { strings } from './strings';

interface FieldProps {
  /** The API's name of the field: its id, and how its errors find it. */
  name: string;
  label: string;
  error: string | null;
  hint?: string;
}

/** A field that hands over its value as typed (a number, a date). */
type ValueFieldProps = FieldProps & { value: string; onInput: (value: string) => void };

function describedBy(name: string, error: string | null, hint: string | undefined) {
  const ids = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** What every field's control carries: its id and name, and its hint and error tied to it. */
function control(props: FieldProps) {
  return {
    id: `field-${props.name}`,
    name: props.name,
    'aria-invalid': props.error ? ('true' as const) : undefined,
    'aria-describedby': describedBy(props.name, props.error, props.hint),
  };
}

/**
 * The API's words for a field, naming it as the form does: `vessel_count: must be at
 * least 0` reads `Vessels now: must be at least 0` under the field labelled so.
 */
export function inFieldWords(error: string, name: string, label: string): string {
  return error.startsWith(`${name}:`) ? `${label}${error.slice(name.length)}` : error;
}

/** How many characters are left, once a field with a limit is nearly full. */
function roomLeft(value: string | undefined, maxLength: number | undefined): number | null {
  if (value === undefined || maxLength === undefined) return null;
  const left = maxLength - value.length;
  return left <= Math.max(20, maxLength / 5) ? left : null;
}

function Wrapper(
  props: FieldProps & { children: ComponentChildren; value?: string; maxLength?: number },
) {
  const left = roomLeft(props.value, props.maxLength);
  return (
    <div class={props.error ? 'field field-invalid' : 'field'}>
      <label for={`field-${props.name}`}>{props.label}</label>
      {props.hint && (
        <p class="field-hint" id={`${props.name}-hint`}>
          {props.hint}
        </p>
      )}
      {props.children}
      {left !== null && (
        <p class="field-hint field-count" aria-live="polite">
          {strings.left(left, props.maxLength!)}
        </p>
      )}
      {props.error && (
        <p class="field-error" id={`${props.name}-error`}>
          {inFieldWords(props.error, props.name, props.label)}
        </p>
      )}
    </div>
  );
}

/** The one input of a text, number or date field, in the field's label, hint and error. */
function InputField(props: { field: FieldProps; input: InputHTMLAttributes }) {
  const { value, maxLength } = props.input;
  return (
    <Wrapper
      {...props.field}
      value={typeof value === 'string' ? value : undefined}
      maxLength={typeof maxLength === 'number' ? maxLength : undefined}
    >
      <input {...props.input} {...control(props.field)} />
    </Wrapper>
  );
}

/** A labelled text input; the API's error for it appears below it. */
export function TextField(
  props: FieldProps & {
    value: string;
    onInput: (event: { currentTarget: HTMLInputElement }) => void;
    type?: 'text' | 'email';
    required?: boolean;
    autocomplete?: string;
    maxLength?: number;
  },
) {
  const { value, onInput, type, required, autocomplete, maxLength, ...field } = props;
  const email = type === 'email';
  return (
    <InputField
      field={field}
      input={{
        type: 'text',
        inputMode: email ? 'email' : undefined,
        autocapitalize: email ? 'off' : undefined,
        value,
        onInput,
        required,
        autocomplete,
        maxLength,
      }}
    />
  );
}

/** A labelled select of `options` ([value, label]); the API's error for it appears below it. */
export function SelectField(
  props: FieldProps & {
    options: readonly (readonly [string, string])[];
    value: string;
    onChange: (value: string) => void;
  },
) {
  const { options, value, onChange, ...field } = props;
  return (
    <Wrapper {...field}>
      <select
        {...control(field)}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
      >
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    </Wrapper>
  );
}

/** The refusal of a form that names none of its fields, announced to screen readers. */
export function FormError(props: { message: string | null }) {
  if (props.message === null) return null;
  return (
    <p class="form-error" role="alert">
      {props.message}
    </p>
  );
}

/**
 * A labelled count or number. Typed as text (numeric keyboard on a phone), so what
 * the person typed reaches the API, which says in its own words what is wrong with it.
 */
export function NumberField(props: ValueFieldProps) {
  const { value, onInput, ...field } = props;
  return (
    <InputField
      field={field}
      input={{
        type: 'text',
        inputMode: 'numeric',
        autocomplete: 'off',
        value,
        onInput: (event) => onInput(event.currentTarget.value),
      }}
    />
  );
}

/** A labelled date (`YYYY-MM-DD`, as the API takes it); the API's error for it appears below it. */
export function DateField(props: ValueFieldProps) {
  const { value, onInput, ...field } = props;
  return (
    <InputField
      field={field}
      input={{ type: 'date', value, onInput: (event) => onInput(event.currentTarget.value) }}
    />
  );
}

/** A labelled box of several lines (notes, a comment); the API's error for it appears below it. */
export function TextAreaField(
  props: FieldProps & {
    value: string;
    onInput: (event: { currentTarget: HTMLTextAreaElement }) => void;
    rows?: number;
    required?: boolean;
    maxLength?: number;
  },
) {
  const { value, onInput, rows, required, maxLength, ...field } = props;
  return (
    <Wrapper {...field} value={value} maxLength={maxLength}>
      <textarea
        {...control(field)}
        value={value}
        onInput={onInput}
        rows={rows ?? 3}
        required={required}
        maxLength={maxLength}
      />
    </Wrapper>
  );
}

/**
 * Each field of a form wired to its value (`useFormValues`) and to the API's error for
 * it: `<TextField {...fields.text('notes')} label=… />`. `value` suits the fields that
 * hand over their value (number, date), `text` those that hand over their input event.
 */
export function bindFields<K extends string>(
  form: { errorFor: (field: string) => string | null },
  values: FormValues<K>,
) {
  const held = (name: K) => ({ name, error: form.errorFor(name), value: values.now[name] });
  return {
    value: (name: K) => ({ ...held(name), onInput: values.set(name) }),
    text: (name: K) => ({
      ...held(name),
      onInput: (event: { currentTarget: { value: string } }) =>
        values.set(name)(event.currentTarget.value),
    }),
    select: (name: K) => ({ ...held(name), onChange: values.set(name) }),
  };
}
