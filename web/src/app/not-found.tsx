import { useLocation } from 'preact-iso';
import { ScreenHeader } from '../ui/parts';
import { useTitle } from '../ui/title';
import { SCREENS } from './screens';
import { strings } from './strings';

/** Whether an address is one of a screen's (`/explants/:id` takes any id). */
const isScreen = (path: string) =>
  SCREENS.some((screen) => {
    const want = screen.path.split('/');
    const got = path.split('/');
    return (
      want.length === got.length &&
      want.every((part, i) => (part.startsWith(':') ? got[i] !== '' : part === got[i]))
    );
  });

/**
 * The address a mistyped one most likely meant: in lower case (`/Explants`), or
 * with its first part in the plural (`/explant/…`), when that is a screen's.
 */
export function meant(path: string): string | null {
  const lower = path.toLowerCase().replace(/\/+$/, '') || '/';
  const [, first = '', ...rest] = lower.split('/');
  const candidates = [lower, ['', `${first}s`, ...rest].join('/')];
  return candidates.find((candidate) => candidate !== path && isScreen(candidate)) ?? null;
}

export default function NotFound() {
  const { path } = useLocation();
  useTitle(strings.notFound.title);
  const suggestion = meant(path);
  return (
    <>
      <ScreenHeader title={strings.notFound.title} lead={strings.notFound.lead(path)} />
      {suggestion !== null && (
        <p class="not-found-meant">
          {strings.notFound.meant} <a href={suggestion}>{suggestion}</a>
          {strings.notFound.meantEnd}
        </p>
      )}
      <a class="button" href="/">
        {strings.notFound.home}
      </a>
    </>
  );
}
