import { useEffect, useRef, useState } from 'react';
import { schemaResolver, useForm } from '@mantine/form';
import { Alert, Button, Container, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link } from 'react-router';
import { isNewSignInEmail, profileUpdate } from '../../../shared/auth.schemas';
import { TIMING } from '../../../shared/constants';
import { formatLongDate } from '../../../shared/dates';
import { MSG } from '../../../shared/messages';
import { can } from '../../../shared/permissions';
import { ApiError } from '../../api/client';
import { errorsAfterLeaving, serverFieldErrors, touchAll } from '../../components/form';
import { useSession } from '../../api/session';
import { LoadState } from '../../components/LoadState';
import { lazyDialog } from '../../components/lazyDialog';
import { useMyData } from './api/myData';
import { useSaveProfile } from './api/saveProfile';
import { usePageTitle } from '../../components/usePageTitle';
import { CurrentPasswordField } from './CurrentPasswordField';
import { OfflineAccountNote, profileOnDevice } from './OfflineAccount';
import { SessionsCard } from './SessionsCard';
import { ApiTokensCard } from './ApiTokensCard';
import { useLogout } from './useLogout';

const ForgotPasswordModal = lazyDialog(() => import('./ForgotPasswordModal').then((m) => m.ForgotPasswordModal));

type Banner = { kind: 'success' | 'error'; text: string } | null;

/** What the page edits: the profile as typed, and the current password (asked only for a new sign-in e-mail). */
type ProfileForm = { first_name: string; last_name: string; email: string; phone_number: string; current_password: string };

/** The rules PUT /crew/myProfileData applies (src/shared/auth.schemas profileUpdate). */
const profileRules = schemaResolver(profileUpdate, { sync: true });

/** docs/product/screens.md §8 User Account: own profile, read-only join date and company, reset, logout, save. */
export default function UserPage() {
  const myData = useMyData();
  const { user } = useSession();
  const { logout, busy: loggingOut, online } = useLogout();
  // Without signal: the copy kept on the phone, else who is signed in here (decision 039).
  const data = myData.data ?? (online ? undefined : profileOnDevice(user));
  usePageTitle('My Account');
  const save = useSaveProfile();
  const [banner, setBanner] = useState<Banner>(null);
  const [resetOpen, setResetOpen] = useState(false);
  const bannerTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // A new sign-in address needs the current password (docs/product/sessions-and-safety.md); the field shows only then.
  const signInEmail = data?.email;
  const form = useForm<ProfileForm>({
    initialValues: { first_name: '', last_name: '', email: '', phone_number: '', current_password: '' },
    validate: (values) => ({
      ...profileRules(values),
      ...(signInEmail !== undefined && isNewSignInEmail(values.email, signInEmail) && !values.current_password
        ? { current_password: MSG.emailChangeNeedsPassword }
        : {}),
    }),
    ...errorsAfterLeaving<ProfileForm>(),
  });

  // The form starts again from the profile each time it changes (loaded, saved, or the copy on
  // this device): by its values, as the copy on the device is a new object on every render.
  const profileKey = data ? JSON.stringify([data.first_name, data.last_name, data.email, data.phone_number]) : null;
  useEffect(() => {
    if (!data) return;
    const values = { first_name: data.first_name, last_name: data.last_name, email: data.email, phone_number: data.phone_number ?? '', current_password: '' };
    form.setValues(values);
    form.resetDirty(values);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- by the profile's values (profileKey), not by the object
  }, [profileKey]);
  useEffect(() => () => clearTimeout(bannerTimer.current), []);

  // Banners disappear after 5 seconds (docs/product/rules.md).
  function show(b: Banner) {
    setBanner(b);
    clearTimeout(bannerTimer.current);
    bannerTimer.current = setTimeout(() => setBanner(null), TIMING.bannerMs);
  }

  const newEmail = Boolean(data) && isNewSignInEmail(form.values.email, data!.email);

  async function onSave({ current_password, ...profile }: ProfileForm) {
    try {
      await save.mutateAsync({ ...profile, phone_number: profile.phone_number || null, current_password: newEmail ? current_password : undefined });
      form.setFieldValue('current_password', '');
      show({ kind: 'success', text: MSG.accountSaved });
    } catch (err) {
      // The server's words where they help: a wrong password, a taken address, a limit reached.
      const fields = serverFieldErrors(err, Object.keys(form.getValues()));
      form.setErrors(fields);
      show({ kind: 'error', text: err instanceof ApiError && err.status !== 500 && Object.keys(err.fields).length === 0 ? err.message : MSG.accountSaveError });
    }
  }

  if (!data)
    return (
      <Container size="sm" py="md">
        <LoadState query={myData} loading="Loading your account" failed="Your account could not be loaded" />
      </Container>
    );

  const field = (name: Exclude<keyof ProfileForm, 'current_password'>, label: string, extra: Record<string, unknown> = {}) => (
    <TextInput label={label} {...form.getInputProps(name)} {...extra} />
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
            {newEmail && <CurrentPasswordField {...form.getInputProps('current_password')} />}
            {field('phone_number', 'Phone', { type: 'tel', inputMode: 'tel' })}
            <TextInput label="Join Date" value={formatLongDate(data.created_date)} readOnly variant="filled" />
            <TextInput label="Company Name" value={data.company_name} readOnly variant="filled" />
          </SimpleGrid>
          <Group justify="space-between" mt="sm">
            <Group gap="xs">
              <Button variant="default" onClick={() => setResetOpen(true)} disabled={!online}>
                Reset Password
              </Button>
              {/* Logout ends this session and every other of this user on the server (docs/product/sessions-and-safety.md §4). */}
              <Button variant="default" color="red" onClick={logout} loading={loggingOut}>
                Logout
              </Button>
            </Group>
            <Button
              onClick={() => {
                touchAll(form);
                form.onSubmit((values) => void onSave(values))();
              }}
              loading={save.isPending}
              disabled={!online}
            >
              Save
            </Button>
          </Group>
        </Stack>
      </Paper>
      <SessionsCard />
      {can(data.role_id, 'webhooks.manage') && (
        <Paper withBorder p="lg" mt="md">
          <Group justify="space-between">
            <Stack gap={2}>
              <Title order={2} size="h3">
                Integrations
              </Title>
              <Text size="sm">Send your other systems an event when a job is created, a ticket completed or reopened, or an invoice created.</Text>
            </Stack>
            <Button component={Link} to="/webhooks" variant="default">
              Webhooks
            </Button>
          </Group>
        </Paper>
      )}
      {/* Admins connect other systems here (docs/product/integrations.md §API tokens). */}
      {can(user?.role_id, 'apiTokens.manage') && online && <ApiTokensCard />}
      {/* docs/product/screens.md §2: the same 'What's My Password?' modal as the login page; its own errors show in it. */}
      <ForgotPasswordModal
        opened={resetOpen}
        onClose={() => setResetOpen(false)}
        initialEmail={data.email}
        onSent={(message) => show({ kind: 'success', text: message })}
      />
    </Container>
  );
}
