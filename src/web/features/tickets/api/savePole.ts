import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Pole, PoleReply } from '../../../../shared/tickets.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** PUT /poles/ {pole} → {pole}: 'Save Pole' (the server keeps the editable fields of poleUpdateBody). */
export const savePole = (pole: Pole) => apiFetch<PoleReply>('/poles/', { method: 'PUT', body: { pole } }).then((b) => b.pole);

export function useSavePole(jobId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: savePole,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.poles });
      void qc.invalidateQueries({ queryKey: queryKeys.job(jobId) });
    },
  });
}
