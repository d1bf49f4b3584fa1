import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImageDeleteReply } from '../../../../shared/tickets.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** DELETE /tickets/images/{id}: the photo, its thumbnail and their files. */
export const deleteImage = ({ id }: { id: number; ticketId: number }) => apiFetch<ImageDeleteReply>(`/tickets/images/${id}`, { method: 'DELETE' });

export function useDeleteImage(jobId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteImage,
    onSuccess: (_r, { ticketId }) => {
      void qc.invalidateQueries({ queryKey: queryKeys.ticket(ticketId) });
      void qc.invalidateQueries({ queryKey: queryKeys.job(jobId) });
    },
  });
}
