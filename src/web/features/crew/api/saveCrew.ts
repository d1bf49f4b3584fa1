import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CrewCreate, CrewSaveReply, CrewUpdate } from '../../../../shared/crew.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

export type SaveCrewInput = { id: null; crew: CrewCreate } | { id: number; crew: CrewUpdate };

/** POST /crew {crew} adds (and invites) a member; PUT /crew/{id} {crew} edits one. */
export const saveCrew = ({ id, crew }: SaveCrewInput) =>
  id == null
    ? apiFetch<CrewSaveReply>('/crew', { method: 'POST', body: { crew } })
    : apiFetch<CrewSaveReply>(`/crew/${id}`, { method: 'PUT', body: { crew } });

/** Refreshes the roster and the foreman lists (a role or status change alters both). */
export function useSaveCrew() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: saveCrew,
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.crewLists }),
  });
}
