import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Container, Group, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { isNewSignInEmail, profileUpdate, type ProfileUpdate } from '../../../shared/auth.schemas';
import { TIMING } from '../../../shared/constants';
import { formatLongDate } from '../../../shared/dates';
import { MSG } from '../../../shared/messages';
import { ApiError } from '../../api/client';
import { useSession } from '../../api/session';
import { LoadState } from '../../components/LoadState';
import { lazyDialog } from '../../components/lazyDialog';
import { useMyData } from './api/myData';
import { useSaveProfile } from './api/saveProfile';
import { usePageTitle } from '../../components/usePageTitle';
import { CurrentPasswordField } from './CurrentPasswordField';
import { OfflineAccountNote, profileOnDevice } from './OfflineAccount';
import { SessionsCard } from './SessionsCard';
import { useLogout } from './useLogout';

const ForgotPasswordModal = lazyDialog(() => import('./ForgotPasswordModal').then((m) => m.ForgotPasswordModal));

type Banner = { kind: 'success' | 'error'; text: string } | null;

/** SPEC §2 User Account: own profile, read-only join date and company, reset, logout, save. */
export default function UserPage() {
  const myData = useMyData();
  const { user } = useSession();
  const { logout, busy: loggingOut, online } = useLogout();
  // Without signal: the copy kept on the phone, else who is signed in here (issue 27).
  const data = myData.data ?? (online ? undefined : profileOnDevice(user));
  usePageTitle('My Account');
  const save = useSaveProfile();
  const [form, setForm] = useState<ProfileUpdate>({ first_name: '', last_name: '', email: '', phone_number: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<Banner>(null);
  const [resetOpen, setResetOpen] = useState(false);
  const [currentPassword, setCurrentPassword] = useState('');
  const bannerTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (data) setForm({ first_name: data.first_name, last_name: data.last_name, email: data.email, phone_number: data.phone_number ?? '' });
  }, [data]);
  useEffect(() => () => clearTimeout(bannerTimer.current), []);

  // Banners disappear after 5 seconds (SPEC §4).
  function show(b: Banner) {
    setBanner(b);
    clearTimeout(bannerTimer.current);
    bannerTimer.current = setTimeout(() => setBanner(null), TIMING.bannerMs);
  }

  function validate(next = form) {
    const parsed = profileUpdate.safeParse(next);
    const errs: Record<string, string> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) errs[String(issue.path[0])] ??= issue.message;
    return errs;
  }

  // A new sign-in address needs the current password (DESIGN §7.7); the field shows only then.
  const newEmail = Boolean(data) && isNewSignInEmail(form.email, data!.email);

  async function onSave() {
    const errs = validate();
    if (newEmail && !currentPassword) errs.current_password = MSG.emailChangeNeedsPassword;
    setErrors(errs);
    if (Object.keys(errs).length) return;
    try {
      await save.mutateAsync({ ...form, phone_number: form.phone_number || null, current_password: newEmail ? currentPassword : undefined });
      setCurrentPassword('');
      show({ kind: 'success', text: MSG.accountSaved });
    } catch (err) {
      // The server's words where they help: a wrong password, a taken address, a limit reached.
      const fields = err instanceof ApiError ? err.fields : {};
      setErrors(fields);
      show({ kind: 'error', text: err instanceof ApiError && err.status !== 500 && Object.keys(fields).length === 0 ? err.message : MSG.accountSaveError });
    }
  }

  if (!data)
    return (
      <Container size="sm" py="md">
        <LoadState query={myData} loading="Loading your account" failed="Your account could not be loaded" />
      </Container>
    );

  const field = (name: keyof ProfileUpdate, label: string, extra: Record<string, unknown> = {}) => (
    <TextInput
      label={label}
      value={form[name] ?? ''}
      error={errors[name]}
      onChange={(e) => {
        const value = e.currentTarget.value;
        setForm((f) => ({ ...f, [name]: value }));
      }}
      onBlur={() => setErrors(validate())}
      {...extra}
    />
  );

  return (
    <Container size="sm" py="md">
      <Paper withBorder p="lg">
        <Stack>
          <Title order={1} size="h2">
            User Account
          </Title>
          {!online && <OfflineAccountNote updatedAt={myData.dataUpdatedAt} />}
          {banner && (
            <Alert color={banner.kind === 'success' ? 'green' : 'red'} role={banner.kind === 'success' ? 'status' : 'alert'}>
              {banner.text}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {field('first_name', 'First Name')}
            {field('last_name', 'Last Name')}
            {field('email', 'Email Address', { type: 'email' })}
            {newEmail && <CurrentPasswordField value={currentPassword} error={errors.current_password} onChange={setCurrentPassword} />}
            {field('phone_number', 'Phone', { type: 'tel', inputMode: 'tel' })}
            <TextInput label="Join Date" value={formatLongDate(data.created_date)} readOnly variant="filled" />
            <TextInput label="Company Name" value={data.company_name} readOnly variant="filled" />
          </SimpleGrid>
          <Group justify="space-between" mt="sm">
            <Group gap="xs">
              <Button variant="default" onClick={() => setResetOpen(true)} disabled={!online}>
                Reset Password
              </Button>
              {/* Logout ends this session and every other of this user on the server (SPEC §2, item 5). */}
              <Button variant="default" color="red" onClick={logout} loading={loggingOut}>
                Logout
              </Button>
            </Group>
            <Button onClick={onSave} loading={save.isPending} disabled={!online}>
              Save
            </Button>
          </Group>
        </Stack>
      </Paper>
      <SessionsCard />
      {/* SPEC §2: the same 'What's My Password?' modal as the login page; its own errors show in it. */}
      <ForgotPasswordModal
        opened={resetOpen}
        onClose={() => setResetOpen(false)}
        initialEmail={data.email}
        onSent={(message) => show({ kind: 'success', text: message })}
      />
    </Container>
  );
}
