import { useEffect, useRef, useState } from 'react';
import { TIMING } from '../../shared/constants';

/**
 * How long to wait before applying `value`: under the threshold, throttled (at once if the last
 * application was at least `delayMs` ago, else when that interval ends); otherwise debounced.
 */
export function searchDelayWait(value: string, lastAppliedAt: number, now: number, thresholdChars: number = TIMING.searchThrottleBelowChars, delayMs: number = TIMING.searchDelayMs): number {
  return value.length < thresholdChars ? Math.max(0, lastAppliedAt + delayMs - now) : delayMs;
}

/**
 * docs/product/rules.md §4.1, rules.md §6 search rule (jobs and crew): while the text is shorter than 5 characters it is
 * throttled (applied at most once a second, the last value always arriving); from 5 characters on
 * it is debounced (applied a second after typing stops). Returns the value the list should use.
 */
export function useSearchDelay(
  value: string,
  { thresholdChars = TIMING.searchThrottleBelowChars, delayMs = TIMING.searchDelayMs }: { thresholdChars?: number; delayMs?: number } = {},
): string {
  const [applied, setApplied] = useState(value);
  const lastApplied = useRef(0);

  useEffect(() => {
    const wait = searchDelayWait(value, lastApplied.current, Date.now(), thresholdChars, delayMs);
    const id = setTimeout(() => {
      lastApplied.current = Date.now();
      setApplied(value);
    }, wait);
    return () => clearTimeout(id);
  }, [value, thresholdChars, delayMs]);

  return applied;
}
