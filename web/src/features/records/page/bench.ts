import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { FIRST_FIELD } from '../../../forms/bench-form';

/** The record page's bench forms, each opened by its action button. */
export type BenchFormName = 'stage' | 'transfer' | 'contamination' | 'split' | KindFormName;

/** The bench forms of one kind of record only: a plant's New explant and Initiate explants. */
export type KindFormName = 'explant' | 'initiate';

export interface BenchForms {
  /** The form open under the actions, if any. */
  readonly form: BenchFormName | null;
  /** Another form asked for while the open one holds what was typed: waiting for a yes. */
  readonly replacing: BenchFormName | null;
  /** The action buttons, for the focus to come back to. */
  readonly buttons: { current: Partial<Record<BenchFormName, HTMLButtonElement | null>> };
  /** The open form's section. */
  readonly section: { current: HTMLElement | null };
  /** Opens a form; asks first when the open one holds input. */
  open: (which: BenchFormName) => void;
  /** Cancel: the form closes, the focus goes back to its button. */
  close: () => void;
  /** After a save: the same. */
  saved: () => void;
  /** Something was typed or chosen in the open form. */
  touch: () => void;
  /** Yes: the open form and what it held go, the asked-for one opens. */
  replace: () => void;
  /** No: the open form stays, the focus goes back into it. */
  keep: () => void;
}

/**
 * Which bench form is open, and the focus around it: a form opens with the focus in
 * its first field (BenchForm), an open form with input asks before another replaces
 * it, and a form that closes (saved or cancelled) hands the focus back to the button
 * that opened it, not to the top of the page.
 */
export function useBenchForms(): BenchForms {
  const [form, setForm] = useState<BenchFormName | null>(null);
  const [replacing, setReplacing] = useState<BenchFormName | null>(null);
  const current = useRef<BenchFormName | null>(null);
  const touched = useRef(false);
  const returnTo = useRef<BenchFormName | null>(null);
  const buttons = useRef<Partial<Record<BenchFormName, HTMLButtonElement | null>>>({});
  const section = useRef<HTMLElement | null>(null);

  const show = (next: BenchFormName | null) => {
    current.current = next;
    touched.current = false;
    setReplacing(null);
    setForm(next);
  };
  const closeToButton = () => {
    returnTo.current = current.current;
    show(null);
  };

  // Before the closed form's place is painted, so a field or button chosen next keeps the focus.
  useLayoutEffect(() => {
    if (form !== null || returnTo.current === null) return;
    buttons.current[returnTo.current]?.focus();
    returnTo.current = null;
  }, [form]);

  return {
    form,
    replacing,
    buttons,
    section,
    open: (which) => {
      if (current.current === which) return;
      if (current.current !== null && touched.current) setReplacing(which);
      else show(which);
    },
    close: closeToButton,
    saved: closeToButton,
    touch: () => {
      touched.current = true;
    },
    replace: () => {
      if (replacing !== null) show(replacing);
    },
    keep: () => {
      setReplacing(null);
      section.current?.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
    },
  };
}
