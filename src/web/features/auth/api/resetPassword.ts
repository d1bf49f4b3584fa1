import type { ResetBody, SessionReply } from '../../../../shared/auth.schemas';
import { apiFetch } from '../../../api/client';

/** POST /crew/reset-password: the mailed link's token and user id, and the new password. */
export const resetPassword = (body: ResetBody) => apiFetch<SessionReply>('/crew/reset-password', { method: 'POST', body, public: true });
