import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddPoleBody } from '../../../../shared/poles.schemas';
import type { Pole, Ticket } from '../../../../shared/tickets.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';
import { unwrapTicket } from '../../../api/ticket';

export const polesKey = ['poles'] as const;

export interface PoleSearch {
  /** Utility id; null = all utilities. */
  utility: number | null;
  pole: string;
  line: string;
}

/** GET /poles/byUtility?utility=&pole=&line= → {poles}: the company's poles matching the text. */
export const searchPoles = ({ utility, pole, line }: PoleSearch, signal?: AbortSignal) => {
  const q = new URLSearchParams({ utility: utility == null ? '' : String(utility), pole: pole.trim(), line: line.trim() });
  return apiFetch<{ poles: Pole[] }>(`/poles/byUtility?${q}`, { signal }).then((b) => b?.poles ?? []);
};

export const polesSearchQuery = (s: PoleSearch) =>
  queryOptions({ queryKey: [...polesKey, 'byUtility', s], queryFn: ({ signal }) => searchPoles(s, signal), placeholderData: keepPreviousData });
export const usePoleSearch = (s: PoleSearch, enabled: boolean) => useQuery({ ...polesSearchQuery(s), enabled });

/** The body of 'Add as a New Pole' (SPEC §7 POST /poles/; DESIGN §5: utility is its id). */
export type AddPoleInput = AddPoleBody & { utility: number };

/** What POST /poles/ answers: the pole, and the ticket it made on the job. */
export interface AddPoleReply {
  pole?: Pole;
  ticket?: Ticket;
  ok?: boolean;
}

/** POST /poles/ with job_id: creates the pole and its ticket on the job in one go. */
export const addPole = (input: AddPoleInput) =>
  apiFetch<AddPoleReply>('/poles/', { method: 'POST', body: input }).then((b) => ({
    pole: b?.pole ?? null,
    ticket: b?.ticket ? unwrapTicket(b.ticket) : null,
  }));

export function useAddPole() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: addPole,
    onSuccess: (r, { job_id }) => {
      if (r.ticket) qc.setQueryData(queryKeys.ticket(r.ticket.id), r.ticket);
      void qc.invalidateQueries({ queryKey: polesKey });
      if (job_id != null) void qc.invalidateQueries({ queryKey: queryKeys.job(job_id) });
      void qc.invalidateQueries({ queryKey: queryKeys.jobs, exact: true });
    },
  });
}

/** PUT /poles/ {pole} → {pole}: 'Save Pole'. */
export const savePole = (pole: Pole) => apiFetch<{ pole: Pole }>('/poles/', { method: 'PUT', body: { pole } }).then((b) => b.pole);

export function useSavePole(jobId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: savePole,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: polesKey });
      void qc.invalidateQueries({ queryKey: queryKeys.job(jobId) });
    },
  });
}
