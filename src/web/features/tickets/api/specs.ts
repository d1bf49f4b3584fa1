import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Spec } from '../../../../shared/poles.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys, REFERENCE_STALE_TIME } from '../../../api/queryKeys';

/** GET /specs/partial?partial=: utility spec numbers starting with the text. */
export const getSpecs = (partial: string, signal?: AbortSignal) =>
  apiFetch<Spec[]>(`/specs/partial?partial=${encodeURIComponent(partial)}`, { signal });
export const specsQuery = (partial: string) =>
  queryOptions({
    queryKey: queryKeys.specs(partial),
    queryFn: ({ signal }) => getSpecs(partial, signal),
    staleTime: REFERENCE_STALE_TIME,
    placeholderData: keepPreviousData,
  });
export const useSpecs = (partial: string) => useQuery(specsQuery(partial));
