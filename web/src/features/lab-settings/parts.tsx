import type { ComponentChildren } from 'preact';
import { useSignedIn } from '../../api/session';
import { Notice, ScreenHeader } from '../../ui/parts';
import { BackLink } from '../../ui/record-screen';
import { useTitle } from '../../ui/title';
import { strings } from './strings';

/** Whether the signed-in person may change the lab's setup (the API's `write:workspace`: managers and up). */
export function useCanChange(): boolean {
  return useSignedIn().atLeast('manager');
}

/**
 * A lab settings screen's top: the way back to the settings, its heading and what it
 * is for, and, to anyone who may only read, who may change it.
 */
export function SettingsHeader(props: {
  title: string;
  lead: string;
  canChange: boolean;
  back?: { href: string; label: string };
  children?: ComponentChildren;
}) {
  useTitle(props.title);
  const back = props.back ?? { href: '/settings', label: strings.back };
  return (
    <>
      <BackLink href={back.href} label={back.label} />
      <ScreenHeader title={props.title} lead={props.lead}>
        {props.canChange && props.children}
      </ScreenHeader>
      {!props.canChange && <Notice>{strings.readOnly}</Notice>}
    </>
  );
}

/** A small status line after a save (`role=status`, so it is read out). */
export function Saved(props: { message: string | null }) {
  if (props.message === null) return null;
  return (
    <p role="status" class="notice notice-info">
      {props.message}
    </p>
  );
}

/** `Fresh shoots` → `fresh_shoots`: the snake_case key the API takes, made from a name. */
export function keyOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^(\d)/, 's_$1');
}

/** A list with the item at `index` moved one place by `by` (-1 up, +1 down). */
export function moved<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}
