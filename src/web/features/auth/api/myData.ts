import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Profile } from '../../../../shared/auth.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** GET /crew/myData returns a list whose first item is the profile (docs/product/api.md §2). */
export const getMyData = async () => {
  const list = await apiFetch<Profile[]>('/crew/myData');
  if (!list?.[0]) throw new Error('Your account could not be loaded.');
  return list[0];
};

export const myDataQuery = () => queryOptions({ queryKey: queryKeys.myData, queryFn: getMyData });
export const useMyData = () => useQuery(myDataQuery());
