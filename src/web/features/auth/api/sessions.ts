import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LogoutAllReply, SessionsReply } from '../../../../shared/auth.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** GET /crew/sessions: my sessions, this device first (docs/product/sessions-and-safety.md §4). */
export const getMySessions = () => apiFetch<SessionsReply>('/crew/sessions');
export const mySessionsQuery = () => queryOptions({ queryKey: queryKeys.mySessions, queryFn: getMySessions });
export const useMySessions = () => useQuery(mySessionsQuery());

/** DELETE /crew/sessions/{id}: signs that device out. */
export const endSession = (id: string) => apiFetch<{ success: boolean }>(`/crew/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** POST /crew/logout-others: "Sign out everywhere else". */
export const logoutOthers = () => apiFetch<LogoutAllReply>('/crew/logout-others', { method: 'POST' });

export function useEndSession() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: endSession, onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.mySessions }) });
}

export function useLogoutOthers() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: logoutOthers, onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.mySessions }) });
}
