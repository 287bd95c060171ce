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

/** A labelled date (the device's date picker); its value is `YYYY-MM-DD`. */
export function DateField(
  props: FieldProps & {
    value: string;
    onInput: (event: { currentTarget: HTMLInputElement }) => void;
  },
) {
  const { name, label, error, hint, value, onInput } = props;
  return (
    <Wrapper name={name} label={label} error={error} hint={hint}>
      <input
        type="date"
        id={`field-${name}`}
        name={name}
        value={value}
        onInput={onInput}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(name, error, hint)}
      />
    </Wrapper>
  );
}

/** A labelled text box for longer text (notes); the API's error for it appears below it. */
export function TextAreaField(
  props: FieldProps & {
    value: string;
    onInput: (event: { currentTarget: HTMLTextAreaElement }) => void;
    rows?: number;
  },
) {
  const { name, label, error, hint, value, onInput } = props;
  return (
    <Wrapper name={name} label={label} error={error} hint={hint}>
      <textarea
        id={`field-${name}`}
        name={name}
        rows={props.rows ?? 3}
        value={value}
        onInput={onInput}
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
