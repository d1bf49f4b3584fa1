import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Utility } from '../../../../shared/jobs.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** GET /utilities: id and code of the company's utilities. */
export const getUtilities = () => apiFetch<Utility[]>('/utilities');
export const utilitiesQuery = () => queryOptions({ queryKey: queryKeys.utilities, queryFn: getUtilities, staleTime: 5 * 60_000 });
export const useUtilities = (enabled = true) => useQuery({ ...utilitiesQuery(), enabled });
