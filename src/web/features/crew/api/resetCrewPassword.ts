import { useMutation } from '@tanstack/react-query';
import type { MessageReply } from '../../../../shared/auth.schemas';
import { apiFetch } from '../../../api/client';

/** POST /crew/{id}/reset-password: mails the member a link to (re)set their password. */
export const resetCrewPassword = (id: number) => apiFetch<MessageReply>(`/crew/${id}/reset-password`, { method: 'POST' });

export const useResetCrewPassword = () => useMutation({ mutationFn: resetCrewPassword });
