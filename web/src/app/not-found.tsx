import { useLocation } from 'preact-iso';
import { ScreenHeader } from '../ui/parts';
import { useTitle } from '../ui/title';
import { strings } from './strings';

export default function NotFound() {
  const { path } = useLocation();
  useTitle(strings.notFound.title);
  return (
    <>
      <ScreenHeader title={strings.notFound.title} lead={strings.notFound.lead(path)} />
      <a class="button" href="/">
        {strings.notFound.home}
      </a>
    </>
  );
}
