import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Ticket } from '../../../shared/tickets.schemas';
import { ticketQuery } from '../../api/ticket';
import type { WorkItem } from './api/work';

/** How many of My Work's tickets are kept whole on the phone, soonest due first. */
const KEEP = 200;
const PARALLEL = 3;

/**
 * A crew opens a ticket at the pole, where there may be no signal: so the full tickets of My
 * Work (tasks, notes, photos) are fetched ahead while there is one, and kept on the device by the
 * offline copies. Only those whose version changed since the copy: a repeat visit costs nothing.
 */
export function useKeepTicketsOnDevice(items: readonly WorkItem[] | undefined, online: boolean) {
  const qc = useQueryClient();
  useEffect(() => {
    if (!items || !online) return;
    const stale = items
      .slice(0, KEEP)
      .filter((row) => qc.getQueryData<Ticket>(ticketQuery(row.id).queryKey)?.version !== row.version);
    let cancelled = false;
    const worker = async () => {
      for (let row = stale.shift(); row && !cancelled; row = stale.shift()) {
        await qc.prefetchQuery(ticketQuery(row.id)).catch(() => undefined);
      }
    };
    void Promise.all(Array.from({ length: PARALLEL }, worker));
    return () => {
      cancelled = true;
    };
  }, [items, online, qc]);
}
