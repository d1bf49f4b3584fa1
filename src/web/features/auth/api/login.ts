import type { z } from 'zod';
import type { LoginBody, sessionReply } from '../../../../shared/auth.schemas';
import { apiFetch } from '../../../api/client';

export type SessionReply = z.infer<typeof sessionReply>;

export const login = (body: LoginBody) => apiFetch<SessionReply>('/crew/login', { method: 'POST', body, public: true });
