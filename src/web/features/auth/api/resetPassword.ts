import { useMutation } from '@tanstack/react-query';
import type { ResetBody, SessionReply } from '../../../../shared/auth.schemas';
import { apiFetch } from '../../../api/client';

/** POST /crew/reset-password: the mailed link's token and user id, and the new password. */
export const resetPassword = (body: ResetBody) => apiFetch<SessionReply>('/crew/reset-password', { method: 'POST', body, public: true });

/** "Save Password"; sent at once, as Log In is (login.ts). */
export const useResetPassword = () => useMutation({ mutationFn: resetPassword, networkMode: 'always' });
