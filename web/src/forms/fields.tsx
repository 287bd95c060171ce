import type { ComponentChildren } from 'preact';

interface FieldProps {
  /** The API's name of the field: its id, and how its errors find it. */
  name: string;
  label: string;
  error: string | null;
  hint?: string;
}

function describedBy(name: string, error: string | null, hint: string | undefined) {
  const ids = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

function Wrapper(props: FieldProps & { children: ComponentChildren }) {
  return (
    <div class={props.error ? 'field field-invalid' : 'field'}>
      <label for={`field-${props.name}`}>{props.label}</label>
      {props.hint && (
        <p class="field-hint" id={`${props.name}-hint`}>
          {props.hint}
        </p>
      )}
      {props.children}
      {props.error && (
        <p class="field-error" id={`${props.name}-error`}>
          {props.error}
        </p>
      )}
    </div>
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
  },
) {
  const { name, label, error, hint, value, onInput, type, required, autocomplete } = props;
  return (
    <Wrapper name={name} label={label} error={error} hint={hint}>
      <input
        type="text"
        inputMode={type === 'email' ? 'email' : undefined}
        autocapitalize={type === 'email' ? 'off' : undefined}
        value={value}
        onInput={onInput}
        required={required}
        autocomplete={autocomplete}
        id={`field-${name}`}
        name={name}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(name, error, hint)}
      />
    </Wrapper>
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
  const { name, label, error, hint, options, value, onChange } = props;
  return (
    <Wrapper name={name} label={label} error={error} hint={hint}>
      <select
        id={`field-${name}`}
        name={name}
        value={value}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(name, error, hint)}
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
export function NumberField(
  props: FieldProps & {
    value: string;
    onInput: (value: string) => void;
  },
) {
  const { name, label, error, hint, value, onInput } = props;
  return (
    <Wrapper name={name} label={label} error={error} hint={hint}>
      <input
        type="text"
        inputMode="numeric"
        autocomplete="off"
        value={value}
        onInput={(event) => onInput(event.currentTarget.value)}
        id={`field-${name}`}
        name={name}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(name, error, hint)}
      />
    </Wrapper>
  );
}

/** A labelled date (`YYYY-MM-DD`, as the API takes it); the API's error for it appears below it. */
export function DateField(
  props: FieldProps & {
    value: string;
    onInput: (value: string) => void;
  },
) {
  const { name, label, error, hint, value, onInput } = props;
  return (
    <Wrapper name={name} label={label} error={error} hint={hint}>
      <input
        type="date"
        value={value}
        onInput={(event) => onInput(event.currentTarget.value)}
        id={`field-${name}`}
        name={name}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(name, error, hint)}
      />
    </Wrapper>
  );
}

/** A labelled box of several lines (notes, a comment); the API's error for it appears below it. */
export function TextAreaField(
  props: FieldProps & {
    value: string;
    onInput: (event: { currentTarget: HTMLTextAreaElement }) => void;
    rows?: number;
    required?: boolean;
  },
) {
  const { name, label, error, hint, value, onInput, rows, required } = props;
  return (
    <Wrapper name={name} label={label} error={error} hint={hint}>
      <textarea
        value={value}
        onInput={onInput}
        rows={rows ?? 3}
        required={required}
        id={`field-${name}`}
        name={name}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(name, error, hint)}
      />
    </Wrapper>
  );
}

/**
 * What a number field holds, for a request: left out when empty, else the number it
 * reads as (text that is no number goes as null, which the API refuses naming the field).
 */
export function countOf(value: string): number | undefined {
  const text = value.trim();
  return text === '' ? undefined : Number(text);
}
