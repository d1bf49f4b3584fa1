import { lazy, Suspense, useState, type ComponentType } from 'react';

/**
 * A modal or drawer (or the notification container) whose code (and Mantine's Modal, focus
 * trap, scroll lock, ScrollArea and floating-ui with it) loads the first time it opens, not with
 * the page: the initial JavaScript budgets of docs/product/scale.md §3. Once opened it stays mounted, so it still closes with its transition and gives
 * focus back to the button that opened it, which unmounting on close would not.
 */
export function lazyDialog<P extends { opened: boolean }>(load: () => Promise<ComponentType<P>>) {
  const Dialog = lazy(() => load().then((component) => ({ default: component })));
  return function LazyDialog(props: P) {
    const [used, setUsed] = useState(props.opened);
    if (props.opened && !used) setUsed(true);
    if (!used && !props.opened) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  };
}
