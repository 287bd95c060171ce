import { Notice, ScreenHeader } from '../ui/parts';
import { useTitle } from '../ui/title';
import { strings } from './strings';

/** What a screen shows when its code could not be loaded: the server is out of reach. */
export function Unreachable(props: { onRetry: () => void }) {
  useTitle(strings.unreachable.title);
  return (
    <>
      <ScreenHeader title={strings.unreachable.title} lead={strings.unreachable.lead} />
      <Notice tone="bad">{strings.unreachable.what}</Notice>
      <div class="actions">
        <button type="button" class="button button-primary" onClick={props.onRetry}>
          {strings.unreachable.retry}
        </button>
      </div>
    </>
  );
}
