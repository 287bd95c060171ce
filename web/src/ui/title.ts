import { useEffect } from 'preact/hooks';

/** The tab's title: the screen, then Vitro. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Vitro`;
  }, [title]);
}
