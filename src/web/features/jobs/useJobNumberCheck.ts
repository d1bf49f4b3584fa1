import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { jobNumberTakenQuery, useJobNumberTaken } from './api/jobExists';

export type NumberState = 'checking' | 'exists' | 'free' | 'failed';

/**
 * Whether a new job's number is taken (docs/product/rules.md: checked when the field loses focus, and again on
 * save if it was not). `stateOf(number)` answers only for the number last checked, so a number
 * typed since then reads as not checked; an answer for an older number is another query's, and
 * is not shown.
 */
export function useJobNumberCheck() {
  const qc = useQueryClient();
  const [asked, setAsked] = useState<string | null>(null);
  const answer = useJobNumberTaken(asked);

  const run = useCallback(
    async (number: string): Promise<NumberState | null> => {
      if (!number) return null;
      setAsked(number);
      try {
        return (await qc.fetchQuery(jobNumberTakenQuery(number))) ? 'exists' : 'free';
      } catch {
        return 'failed';
      }
    },
    [qc],
  );

  /** The number changed: any answer on the way is for an old one. */
  const forget = useCallback(() => setAsked(null), []);

  /** The server refused the save because the number is taken (ERROR_CODE.jobNumberTaken). */
  const taken = useCallback(
    (number: string) => {
      qc.setQueryData(jobNumberTakenQuery(number).queryKey, true);
      setAsked(number);
    },
    [qc],
  );

  const state: NumberState | null =
    answer.fetchStatus === 'fetching' ? 'checking' : answer.isError ? 'failed' : answer.data === true ? 'exists' : answer.data === false ? 'free' : null;
  const stateOf = (number: string): NumberState | null => (asked === number ? state : null);

  return { run, forget, taken, stateOf };
}
