import { useMutation } from '@tanstack/react-query';
import type { LoginBody, SessionReply } from '../../../../shared/auth.schemas';
import { apiFetch } from '../../../api/client';

/** POST /crew/login: the server sets the session cookie; the reply says who signed in. */
export const login = (body: LoginBody) => apiFetch<SessionReply>('/crew/login', { method: 'POST', body, public: true });

/**
 * Log In. Sent at once even when the app believes it is offline (networkMode 'always'): the
 * person then reads why it failed instead of a button that waits for a signal.
 */
export const useLogin = () => useMutation({ mutationFn: login, networkMode: 'always' });
