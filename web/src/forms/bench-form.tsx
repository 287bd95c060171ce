import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { Confirm } from '../ui/list';
import { FormError } from './fields';
import type { ApiForm } from './form';
import { strings } from './strings';

/** The first field a person fills in, in a form. */
export const FIRST_FIELD = 'input:not([type=hidden]):not([disabled]), select, textarea';

/** A question a form asks before it sends what it holds (a transfer without counts). */
export interface Question {
  readonly question: string;
  readonly yes: string;
  readonly no: string;
}

/**
 * A form's shell: its title (the form's name, and its heading), what it is for, the
 * refusal that names none of its fields, its fields, then save and, where the form can
 * be left, cancel. A form that can be left was opened by a button: it takes the focus
 * into its first field, so what is typed next lands there. `ask` may hold it back
 * with a question first (yes sends, no goes back to the fields).
 */
export function BenchForm(props: {
  title: string;
  /** False for a form under its section's own heading: the title only names it. */
  heading?: boolean;
  lead?: string;
  save: string;
  form: ApiForm<unknown>;
  onCancel?: () => void;
  /** The question to answer before sending what the form holds; null sends at once. */
  ask?: () => Question | null;
  /** A form standing on its own on the screen, framed as a panel. */
  panel?: boolean;
  /** Every check left to the API, whose words say what is wrong (the record pages' forms). */
  noValidate?: boolean;
  children: ComponentChildren;
}) {
  const { form } = props;
  const element = useRef<HTMLFormElement>(null);
  const [asking, setAsking] = useState<Question | null>(null);
  const opened = props.onCancel !== undefined;
  const firstField = () => element.current?.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
  // Before the form is first painted, so it never takes the focus from a field the
  // person (or a test) already chose: what they type lands where they put it.
  useLayoutEffect(() => {
    if (opened && !element.current?.contains(document.activeElement)) firstField();
  }, []);
  const submit = (event: Event) => {
    event.preventDefault();
    const question = props.ask?.() ?? null;
    if (question !== null) setAsking(question);
    else void form.submit();
  };
  return (
    <form
      ref={element}
      class={props.panel ? 'form panel' : 'form'}
      noValidate={props.noValidate}
      aria-label={props.title}
      onSubmit={submit}
    >
      {props.heading !== false && <h2>{props.title}</h2>}
      {props.lead && <p class="muted">{props.lead}</p>}
      <FormError message={form.formError} />
      {props.children}
      {asking !== null ? (
        <Confirm
          label={strings.ask}
          question={asking.question}
          yes={asking.yes}
          no={asking.no}
          busy={form.busy}
          tone="primary"
          focus
          onYes={() => {
            setAsking(null);
            void form.submit();
          }}
          onNo={() => {
            setAsking(null);
            firstField();
          }}
        />
      ) : (
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
      )}
    </form>
  );
}
