import type { MessageReply } from '../../../../shared/auth.schemas';
import { apiFetch } from '../../../api/client';

/** POST /crew/forgot-password: mails a new link (an invitation again for an account with no password yet). */
export const requestNewLink = (email: string) => apiFetch<MessageReply>('/crew/forgot-password', { method: 'POST', body: { email }, public: true });
