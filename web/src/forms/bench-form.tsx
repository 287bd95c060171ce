import type { ComponentChildren } from 'preact';
import { FormError } from './fields';
import type { ApiForm } from './form';
import { strings } from './strings';

/**
 * A form's shell: its title (the form's name, and its heading), what it is for, the
 * refusal that names none of its fields, its fields, then save and, where the form can
 * be left, cancel.
 */
export function BenchForm(props: {
  title: string;
  /** False for a form under its section's own heading: the title only names it. */
  heading?: boolean;
  lead?: string;
  save: string;
  form: ApiForm<unknown>;
  onCancel?: () => void;
  /** A form standing on its own on the screen, framed as a panel. */
  panel?: boolean;
  /** Every check left to the API, whose words say what is wrong (the record pages' forms). */
  noValidate?: boolean;
  children: ComponentChildren;
}) {
  const { form } = props;
  return (
    <form
      class={props.panel ? 'form panel' : 'form'}
      noValidate={props.noValidate}
      aria-label={props.title}
      onSubmit={(event) => void form.submit(event)}
    >
      {props.heading !== false && <h2>{props.title}</h2>}
      {props.lead && <p class="muted">{props.lead}</p>}
      <FormError message={form.formError} />
      {props.children}
      <div class="actions">
        <button type="submit" class="button button-primary" disabled={form.busy}>
          {props.save}
        </button>
        {props.onCancel && (
          <button type="button" class="button button-quiet" onClick={props.onCancel}>
            {strings.cancel}
          </button>
        )}
      </div>
    </form>
  );
}
