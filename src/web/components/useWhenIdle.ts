import { useEffect, useState } from 'react';

/**
 * Runs `callback` when the browser next has a moment with nothing to do, at most `timeoutMs`
 * later (after `fallbackMs` where requestIdleCallback is missing, e.g. Safari). Returns a cancel.
 */
export function whenIdle(callback: () => void, timeoutMs: number, fallbackMs = 0): () => void {
  if (typeof requestIdleCallback === 'undefined') {
    const t = setTimeout(callback, fallbackMs);
    return () => clearTimeout(t);
  }
  const h = requestIdleCallback(callback, { timeout: timeoutMs });
  return () => cancelIdleCallback(h);
}

/**
 * False until `ready` has been true and the browser then had a moment with nothing to do (at
 * most `timeoutMs` later): what sits below the fold mounts after what is in view has painted,
 * so its code, its requests and the work they cause on the server do not delay that paint.
 */
export function useWhenIdle(ready: boolean, timeoutMs = 1000): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (!ready || idle) return;
    return whenIdle(() => setIdle(true), timeoutMs);
  }, [ready, idle, timeoutMs]);
  return idle;
}
