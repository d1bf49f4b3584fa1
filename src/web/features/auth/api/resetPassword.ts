import { apiFetch } from '../../../api/client';
import type { SessionReply } from './login';

export const resetPassword = (body: { resetToken: string; userId: number; password: string }) =>
  apiFetch<SessionReply>('/crew/reset-password', { method: 'POST', body, public: true });

/** POST /crew/forgot-password: a new link (an invitation again for an account with no password yet). */
export const requestNewLink = (email: string) =>
  apiFetch<{ success: boolean; message: string }>('/crew/forgot-password', { method: 'POST', body: { email }, public: true });
