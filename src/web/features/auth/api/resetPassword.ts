import { apiFetch } from '../../../api/client';
import type { SessionReply } from './login';

export const resetPassword = (body: { resetToken: string; userId: number; password: string }) =>
  apiFetch<SessionReply>('/crew/reset-password', { method: 'POST', body, public: true });
