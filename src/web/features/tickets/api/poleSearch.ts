import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PolesReply } from '../../../../shared/tickets.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** What the Pole tab searches by (sent as text: byUtilityQuery of src/shared/poles.schemas.ts). */
export interface PoleSearch {
  /** Utility id; null = all utilities. */
  utility: number | null;
  pole: string;
  line: string;
}

/** GET /poles/byUtility?utility=&pole=&line= → {poles}: the company's poles matching the text. */
export const searchPoles = ({ utility, pole, line }: PoleSearch, signal?: AbortSignal) => {
  const q = new URLSearchParams({ utility: utility == null ? '' : String(utility), pole: pole.trim(), line: line.trim() });
  return apiFetch<PolesReply>(`/poles/byUtility?${q}`, { signal }).then((b) => b.poles);
};

export const polesSearchQuery = (s: PoleSearch) =>
  queryOptions({ queryKey: queryKeys.poleSearch(s), queryFn: ({ signal }) => searchPoles(s, signal), placeholderData: keepPreviousData });
export const usePoleSearch = (s: PoleSearch, enabled: boolean) => useQuery({ ...polesSearchQuery(s), enabled });
