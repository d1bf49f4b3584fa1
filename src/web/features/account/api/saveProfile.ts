import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Profile, ProfileUpdate } from '../../../../shared/auth.schemas';
import { apiFetch } from '../../../api/client';
import { myDataKey } from './myData';

export const saveProfile = (user: ProfileUpdate) =>
  apiFetch<{ success: boolean; user: Profile }>('/crew/myProfileData', { method: 'PUT', body: { user } });

export function useSaveProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: saveProfile,
    onSuccess: (data) => qc.setQueryData(myDataKey, data.user),
  });
}
