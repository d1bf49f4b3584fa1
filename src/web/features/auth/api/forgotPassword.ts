import { useMutation } from '@tanstack/react-query';
import type { MessageReply } from '../../../../shared/auth.schemas';
import { apiFetch } from '../../../api/client';

/** POST /crew/forgot-password: mails a new link (an invitation again for an account with no password yet). */
export const requestNewLink = (email: string) => apiFetch<MessageReply>('/crew/forgot-password', { method: 'POST', body: { email }, public: true });

/** "Send My Password" / "Send me a new link"; sent at once, as Log In is (login.ts). */
export const useRequestNewLink = () => useMutation({ mutationFn: requestNewLink, networkMode: 'always' });
