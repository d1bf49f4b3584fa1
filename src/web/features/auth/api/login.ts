import type { LoginBody, SessionReply } from '../../../../shared/auth.schemas';
import { apiFetch } from '../../../api/client';

/** POST /crew/login: the server sets the session cookie; the reply says who signed in. */
export const login = (body: LoginBody) => apiFetch<SessionReply>('/crew/login', { method: 'POST', body, public: true });
