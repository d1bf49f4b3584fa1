import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Utility } from '../../shared/jobs.schemas';
import { apiFetch } from './client';
import { queryKeys, REFERENCE_STALE_TIME } from './queryKeys';

/**
 * GET /utilities: id and code of the company's utilities, offered by the job forms and the
 * ticket window's Pole tab.
 */
export const getUtilities = () => apiFetch<Utility[]>('/utilities');
export const utilitiesQuery = () => queryOptions({ queryKey: queryKeys.utilities, queryFn: getUtilities, staleTime: REFERENCE_STALE_TIME });
export const useUtilities = (enabled = true) => useQuery({ ...utilitiesQuery(), enabled });
