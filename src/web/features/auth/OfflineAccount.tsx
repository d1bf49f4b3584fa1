import { Alert } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import type { Profile, SessionUser } from '../../../shared/auth.schemas';

const time = (ms: number) => new Date(ms).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/**
 * The account as this phone knows it without signal (decision 039: the User page was blank offline):
 * when no copy of the profile was kept (the page was never opened with signal), who is signed
 * in here — name, email, role — and '' for what only the server knows.
 */
export function profileOnDevice(user: SessionUser | null): Profile | undefined {
  if (!user) return undefined;
  return {
    id: user.id,
    company_id: user.company_id,
    role_id: user.role_id,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    phone_number: null,
    company_name: '',
    company_time_zone: user.company_time_zone,
    created_date: '',
    display_role_name: '',
  };
}

/** What works and what needs signal, in field words. */
export function OfflineAccountNote({ updatedAt }: { updatedAt: number }) {
  return (
    <Alert color="yellow" icon={<IconCloudOff size={18} aria-hidden />} title="No signal" data-testid="account-offline-note">
      {updatedAt ? `Your account as this phone last saw it (${time(updatedAt)}). ` : 'Your name and email as this phone knows them. '}
      Saving changes and Reset Password need signal.
    </Alert>
  );
}
