// React.lazy whose code can be loaded ahead (early-start.ts) and then renders at once. A plain lazy
// component suspends on its first render even when its module is already loaded (it waits for a promise),
// and React then shows the Suspense fallback and holds the content back for its fallback throttle
// (about 300 ms): on an offline start that was 300 ms per lazy step (replica provider, then the page).
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the same constraint as React.lazy's own
type AnyComponent = ComponentType<any>;

export interface PreloadableLazy<T extends AnyComponent> {
  Component: LazyExoticComponent<T>;
  /** Starts loading the code (once); resolves when it is loaded. */
  preload: () => Promise<unknown>;
}

export function preloadableLazy<T extends AnyComponent>(
  load: () => Promise<{ default: T }>,
): PreloadableLazy<T> {
  let loaded: { default: T } | undefined;
  let pending: Promise<{ default: T }> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    ));
  // A loaded module is handed over in a thenable that answers synchronously, so React.lazy resolves it
  // during the first render instead of suspending.
  const Component = lazy(() =>
    loaded
      ? ({ then: (onLoaded: (m: { default: T }) => void) => onLoaded(loaded!) } as unknown as Promise<{
          default: T;
        }>)
      : preload(),
  );
  return { Component, preload };
}
