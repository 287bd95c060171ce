import type { ComponentType } from 'preact';
import { useSignedIn } from '../api/session';
import { Notice, ScreenHeader } from '../ui/parts';
import { useTitle } from '../ui/title';
import type { AdminsOnly, ScreenProps } from './screens';

/**
 * The one gate of the console: a screen for admins and owners (`who: { admins }` in
 * SCREENS) shown to them, and to anyone else its header and why not.
 */
export function adminsOnly(
  Screen: ComponentType<ScreenProps>,
  words: AdminsOnly,
): ComponentType<ScreenProps> {
  return function AdminsOnlyScreen(props: ScreenProps) {
    const { atLeast } = useSignedIn();
    return atLeast('admin') ? <Screen {...props} /> : <Refused words={words} />;
  };
}

function Refused(props: { words: AdminsOnly }) {
  const { words } = props;
  useTitle(words.title);
  return (
    <>
      <ScreenHeader title={words.title} lead={words.lead} />
      <Notice>{words.adminsOnly}</Notice>
    </>
  );
}
