import { useLocation } from 'preact-iso';
import { ScreenHeader } from '../ui/parts';
import { useTitle } from '../ui/title';

const strings = {
  title: 'Not in the console yet',
  lead: (path: string) =>
    `${path} is a Vitro address, and its screen is still to come. The API already serves this record.`,
  home: 'Back to home',
  docs: 'API reference',
} as const;

/** A reserved record or list address whose screen has not landed yet. */
export default function NotBuilt() {
  const { path } = useLocation();
  useTitle(strings.title);
  return (
    <>
      <ScreenHeader title={strings.title} lead={strings.lead(path)} />
      <p class="actions">
        <a class="button" href="/">
          {strings.home}
        </a>
        <a class="button button-quiet" href="/docs" target="_blank" rel="noopener">
          {strings.docs}
        </a>
      </p>
    </>
  );
}
