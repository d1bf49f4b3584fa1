import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageReply } from '../../../../shared/auth.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** POST /crew/{id}/resend-invitation: a new 7-day invitation for a member who has not set a password yet. */
export const resendInvitation = (id: number) => apiFetch<MessageReply>(`/crew/${id}/resend-invitation`, { method: 'POST' });

export const useResendInvitation = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: resendInvitation, onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.crew }) });
};
