import { useLocation } from 'preact-iso';
import { ScreenHeader } from '../ui/parts';
import { useTitle } from '../ui/title';
import { strings } from './strings';

/** A reserved record or list address whose screen has not landed yet. */
export default function NotBuilt() {
  const { path } = useLocation();
  useTitle(strings.notBuilt.title);
  return (
    <>
      <ScreenHeader title={strings.notBuilt.title} lead={strings.notBuilt.lead(path)} />
      <p class="actions">
        <a class="button" href="/">
          {strings.notBuilt.home}
        </a>
        <a class="button button-quiet" href="/docs" target="_blank" rel="noopener">
          {strings.notBuilt.docs}
        </a>
      </p>
    </>
  );
}
