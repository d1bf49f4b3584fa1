import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UnitLibraryItem } from '../../../../shared/production.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** PUT /units/{id} {unit: {unit_price}} (roles 1–2): the price as typed; '' or null clears it. */
export const saveUnitPrice = ({ id, unit_price }: { id: number; unit_price: string | null }) =>
  apiFetch<{ unit: UnitLibraryItem }>(`/units/${id}`, { method: 'PUT', body: { unit: { unit_price } } });

/**
 * The saved unit goes into the library list at once; the jobs (their % Complete and every
 * production view under a job's key) are refetched, as a price changes their amounts.
 */
export function useSaveUnitPrice(utilityId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: saveUnitPrice,
    onSuccess: ({ unit }) => {
      qc.setQueryData<UnitLibraryItem[]>(queryKeys.unitLibrary(utilityId), (list) => list?.map((u) => (u.id === unit.id ? unit : u)));
      void qc.invalidateQueries({ queryKey: queryKeys.jobs });
    },
  });
}
