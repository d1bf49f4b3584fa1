import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProfileSaveReply, ProfileUpdate } from '../../../../shared/auth.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** PUT /crew/myProfileData {user}: one's own name, email and phone. */
export const saveProfile = (user: ProfileUpdate) => apiFetch<ProfileSaveReply>('/crew/myProfileData', { method: 'PUT', body: { user } });

export function useSaveProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: saveProfile,
    onSuccess: (data) => qc.setQueryData(queryKeys.myData, data.user),
  });
}
