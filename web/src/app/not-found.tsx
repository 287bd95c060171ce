import { useLocation } from 'preact-iso';
import { ScreenHeader } from '../ui/parts';
import { useTitle } from '../ui/title';

const strings = {
  title: 'Page not found',
  lead: (path: string) => `There is no page at ${path}.`,
  home: 'Back to home',
} as const;

export default function NotFound() {
  const { path } = useLocation();
  useTitle(strings.title);
  return (
    <>
      <ScreenHeader title={strings.title} lead={strings.lead(path)} />
      <a class="button" href="/">
        {strings.home}
      </a>
    </>
  );
}
