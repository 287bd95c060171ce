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
