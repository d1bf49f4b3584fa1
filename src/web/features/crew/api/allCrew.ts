import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CrewMember } from '../../../../shared/crew.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** GET /crew/allCrew: the whole roster, active and inactive (the page filters). */
export const getAllCrew = () => apiFetch<CrewMember[]>('/crew/allCrew');

export const allCrewQuery = () => queryOptions({ queryKey: queryKeys.crew, queryFn: getAllCrew });
export const useAllCrew = (enabled = true) => useQuery({ ...allCrewQuery(), enabled });
