import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CrewMember } from '../../../../shared/crew.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** Every crew query (roster, foremen, working foremen, roles) starts with 'crew', so one invalidation refreshes them all. */
export const crewKey = ['crew'] as const;
export const allCrewKey = queryKeys.crew;

/** GET /crew/allCrew: the whole roster, active and inactive (the page filters). */
export const getAllCrew = () => apiFetch<CrewMember[]>('/crew/allCrew');

export const allCrewQuery = () => queryOptions({ queryKey: allCrewKey, queryFn: getAllCrew });
export const useAllCrew = (enabled = true) => useQuery({ ...allCrewQuery(), enabled });
