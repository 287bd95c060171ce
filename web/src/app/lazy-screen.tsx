import type { ComponentType } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { Unreachable } from './unreachable';

/**
 * A screen's code loaded when first opened (its own chunk), as preact-iso's `lazy`,
 * except when it cannot be loaded (offline, the server down): the screen then says
 * the server cannot be reached, with a way to try again, instead of the router
 * keeping the previous screen under the new address for good.
 */
export function lazyScreen<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<void> | null = null;
  let failed = false;
  const start = () =>
    (pending ??= load().then(
      (module) => {
        loaded = module.default;
      },
      () => {
        failed = true;
        pending = null;
      },
    ));
  return function LazyScreen(props: P) {
    const [, update] = useState(0);
    // This screen renders again once its code settles (the router re-renders the same
    // element, which preact would skip).
    const waiting = useRef<Promise<void> | null>(null);
    if (loaded !== null) {
      const Screen = loaded;
      return <Screen {...props} />;
    }
    if (failed) {
      return (
        <Unreachable
          onRetry={() => {
            failed = false;
            waiting.current = null;
            update((n) => n + 1);
          }}
        />
      );
    }
    waiting.current ??= start().then(() => update((n) => n + 1));
    // Suspends: the router keeps the previous screen until this settles, either way.
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- how a screen suspends
    throw start();
  };
}
