import { useCallback, useRef, useState } from 'react';
import { jobNumberExists } from './api/jobExists';

export type NumberState = 'checking' | 'exists' | 'free' | 'failed';

/**
 * Whether a new job's number is taken (SPEC §4: checked when the field loses focus, and again on
 * save if it was not). `stateOf(number)` answers only for the number last checked, so a number
 * typed since then reads as not checked; a late answer for an older number is dropped.
 */
export function useJobNumberCheck() {
  const [check, setCheck] = useState<{ number: string; state: NumberState } | null>(null);
  const seq = useRef(0);

  const run = useCallback(async (number: string): Promise<NumberState | null> => {
    if (!number) return null;
    const mine = ++seq.current;
    setCheck({ number, state: 'checking' });
    let state: NumberState;
    try {
      state = (await jobNumberExists(number)) ? 'exists' : 'free';
    } catch {
      state = 'failed';
    }
    if (mine === seq.current) setCheck({ number, state });
    return state;
  }, []);

  /** The number changed: any answer on the way is for an old one. */
  const forget = useCallback(() => {
    seq.current++;
    setCheck(null);
  }, []);

  /** The server refused the save because the number is taken (ERROR_CODE.jobNumberTaken). */
  const taken = useCallback((number: string) => setCheck({ number, state: 'exists' }), []);

  const stateOf = (number: string): NumberState | null => (check && check.number === number ? check.state : null);

  return { run, forget, taken, stateOf };
}
