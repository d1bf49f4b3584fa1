import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Ticket } from '../../../shared/tickets.schemas';
import { signOutHooks } from '../../api/session';
import { ticketQuery } from '../../api/ticket';
import type { WorkItem } from './api/work';
import { jobHeaderQuery } from './api/jobHeader';

/** How many of My Work's tickets are kept whole on the phone, soonest due first. */
const KEEP = 200;
const PARALLEL = 3;

/**
 * A crew opens a ticket at the pole, where there may be no signal: so the full tickets of My
 * Work (tasks, notes, photos) and their jobs' headers are fetched ahead while there is one, and kept on the device by the
 * offline copies. Only those whose version changed since the copy: a repeat visit costs nothing.
 */
/** The latest run: an older one stops at its next ticket. */
let generation = 0;
// Signing out stops the run too: the next person on a shared phone does not fetch the last one's list.
signOutHooks.add(() => {
  generation++;
});

export function useKeepTicketsOnDevice(items: readonly WorkItem[] | undefined, online: boolean) {
  const qc = useQueryClient();
  useEffect(() => {
    if (!items || !online) return;
    const stale = items
      .slice(0, KEEP)
      .filter((row) => qc.getQueryData<Ticket>(ticketQuery(row.id).queryKey)?.version !== row.version);
    // And each job's header ("Before you climb": hospital, packet, overrides), once per job.
    const jobs = [...new Set(items.slice(0, KEEP).map((row) => row.job_id))].filter((id) => qc.getQueryData(jobHeaderQuery(id).queryKey) === undefined);
    const queue = [...jobs.map((id) => () => qc.prefetchQuery(jobHeaderQuery(id))), ...stale.map((row) => () => qc.prefetchQuery(ticketQuery(row.id)))];
    // Leaving My Work does not stop the fetching: a crew taps the first ticket within seconds of
    // opening the list, and the rest must still reach the phone before it loses signal. Only a
    // newer list (a refetch, another foreman) replaces this run.
    const run = ++generation;
    const worker = async () => {
      for (let next = queue.shift(); next && run === generation; next = queue.shift()) {
        await next().catch(() => undefined);
      }
    };
    void Promise.all(Array.from({ length: PARALLEL }, worker));
  }, [items, online, qc]);
}
