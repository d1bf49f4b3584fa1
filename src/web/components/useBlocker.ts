import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * "You have unsaved changes" for the browser's Back and Forward buttons (the phone's Back first
 * of all), with React Router's declarative router. Its data router has a `useBlocker`, but that
 * router is ~17 KB gzip more JavaScript on every first load (docs/product/scale.md §3: /work < 150 KB), for this
 * one hook. The same method as its: a popstate the guard refuses is hidden from the router, the
 * browser is sent back to the entry it left (`history.go`, by the `idx` React Router keeps in
 * each entry's state), and `proceed` repeats the move once the user agrees.
 *
 * Only moves through the history are guarded: what an open ticket window can reach otherwise is
 * its own buttons, which ask first themselves.
 */

interface Where {
  pathname: string;
  search: string;
}
export type ShouldBlock = (args: { currentLocation: Where; nextLocation: Where }) => boolean;
export interface Blocker {
  state: 'unblocked' | 'blocked';
  /** Leave after all: the move the user made is made again, unguarded. */
  proceed: () => void;
  /** Stay where we are. */
  reset: () => void;
}

interface Guard {
  current: () => Where;
  shouldBlock: ShouldBlock;
  blocked: (delta: number) => void;
}

let guard: Guard | null = null;
/** The history index of the entry on screen, while a guard is armed. */
let onScreenIdx: number | null = null;
/** Moves this module makes itself: swallowed (the return) or let through (the repeat). */
let swallowNext = false;
let passNext = false;

const idxOf = (state: unknown): number | null => {
  const idx = (state as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' ? idx : null;
};

function onPopState(event: PopStateEvent) {
  if (swallowNext) {
    swallowNext = false;
    event.stopImmediatePropagation();
    return;
  }
  if (passNext || !guard) {
    passNext = false;
    return;
  }
  const next = { pathname: window.location.pathname, search: window.location.search };
  const nextIdx = idxOf(event.state);
  const delta = onScreenIdx !== null && nextIdx !== null ? onScreenIdx - nextIdx : 0;
  // An entry React Router did not write (no idx) cannot be returned from: it is let through.
  if (delta === 0 || !guard.shouldBlock({ currentLocation: guard.current(), nextLocation: next })) return;
  event.stopImmediatePropagation();
  swallowNext = true;
  window.history.go(delta);
  guard.blocked(delta);
}

/**
 * Registered before the router starts listening (router.tsx calls it at load), so a refused
 * move never reaches the router: listeners of one event run in the order they were added.
 */
export function installHistoryGuard() {
  window.addEventListener('popstate', onPopState);
}

/** React Router's `useBlocker` signature, for history moves (see above). */
export function useBlocker(shouldBlock: ShouldBlock): Blocker {
  const location = useLocation();
  const here = useRef<Where>(location);
  const check = useRef(shouldBlock);
  const [delta, setDelta] = useState<number | null>(null);
  useEffect(() => {
    here.current = location;
    check.current = shouldBlock;
    // Pushes raise no event: the entry on screen is read whenever the location changes.
    onScreenIdx = idxOf(window.history.state);
  });
  useEffect(() => {
    const mine: Guard = { current: () => here.current, shouldBlock: (args) => check.current(args), blocked: setDelta };
    guard = mine;
    return () => {
      if (guard === mine) guard = null;
    };
  }, []);
  // One object per state, as React Router's: effects that depend on it run once per block.
  return useMemo<Blocker>(
    () => ({
      state: delta === null ? 'unblocked' : 'blocked',
      proceed: () => {
        if (delta === null) return;
        setDelta(null);
        passNext = true;
        window.history.go(-delta);
      },
      reset: () => setDelta(null),
    }),
    [delta],
  );
}
