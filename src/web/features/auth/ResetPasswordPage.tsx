import { useState } from 'react';
import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useNavigate, useSearchParams } from 'react-router';
import { isWellFormedResetLink, newLinkForm, resetPasswordForm, type ResetPasswordForm } from '../../../shared/auth.schemas';
import { LIMITS } from '../../../shared/constants';
import { ERROR_CODE } from '../../../shared/error-codes';
import { MSG } from '../../../shared/messages';
import { ApiError } from '../../api/client';
import { clearSession } from '../../api/session';
import { firstMessage, withoutError } from '../../components/form';
import { usePageTitle } from '../../components/usePageTitle';
import { useRequestNewLink } from './api/forgotPassword';
import { useResetPassword } from './api/resetPassword';

/** The shared rules of the two forms (src/shared/auth.schemas), as their `validate`. */
const passwordRules = schemaResolver(resetPasswordForm, { sync: true });
const newLinkRules = schemaResolver(newLinkForm, { sync: true });

/**
 * /resetPassword?resetToken=…&userId=… : choose a new password, then back to /login. A link that
 * is malformed (cut short by a mail client), used or expired says so and offers to mail a new one
 *: most people who land here are new crew members opening their invitation.
 */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const resetToken = params.get('resetToken') ?? '';
  const userId = params.get('userId') ?? '';
  const form = useForm<ResetPasswordForm>({ initialValues: { password: '', confirm: '' }, validate: passwordRules });
  const reset = useResetPassword();
  const [error, setError] = useState<string | null>(null);
  // The server's verdict on a well-formed link it does not know (used, expired, superseded).
  const [refused, setRefused] = useState(false);
  const linkValid = isWellFormedResetLink({ resetToken, userId }) && !refused;
  usePageTitle('Set your password');

  async function submit({ password }: ResetPasswordForm) {
    setError(null);
    try {
      await reset.mutateAsync({ resetToken, userId: Number(userId), password });
      // The new password is set and every earlier session ended; sign in on the login page (docs/product/screens.md).
      clearSession();
      notifications.show({ color: 'green', message: 'Your password is set. Log in with it now.' });
      navigate('/login', { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.code === ERROR_CODE.resetInvalid) setRefused(true);
      else setError(err instanceof ApiError ? err.message : MSG.generic);
    }
  }

  return (
    <Center mih="80vh" p="md">
      <Paper withBorder shadow="sm" p="lg" w="100%" maw={380}>
        <Stack>
          <Title order={1} size="h3">
            Set your password
          </Title>
          {!linkValid ? (
            <NewLinkForm />
          ) : (
            <form onSubmit={form.onSubmit((values) => void submit(values), (errors) => setError(firstMessage(errors)))}>
              <Stack>
                <Text size="sm" c="dimmed">
                  Choose a password of at least {LIMITS.passwordMin} characters.
                </Text>
                {error && (
                  <Alert color="red" role="alert">
                    {error}
                  </Alert>
                )}
                <PasswordInput label="New Password" autoComplete="new-password" {...withoutError(form.getInputProps('password'))} />
                <PasswordInput label="Confirm Password" autoComplete="new-password" {...withoutError(form.getInputProps('confirm'))} />
                <Button type="submit" loading={reset.isPending}>
                  Save Password
                </Button>
              </Stack>
            </form>
          )}
          <Button variant="subtle" onClick={() => navigate('/login')}>
            Back to Log In
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}

/** The link cannot be used: say so, and mail a new one to the address the person gives. */
function NewLinkForm() {
  const form = useForm<{ email: string }>({ initialValues: { email: '' }, validate: newLinkRules });
  const send = useRequestNewLink();
  const [error, setError] = useState<string | null>(null);

  async function submit({ email }: { email: string }) {
    setError(null);
    try {
      await send.mutateAsync(email.trim());
    } catch (err) {
      setError(err instanceof ApiError ? err.message : MSG.generic);
    }
  }

  return (
    <Stack>
      <Alert color="red" role="alert" title="This link cannot be used">
        {MSG.resetInvalid}
      </Alert>
      {send.data ? (
        <Alert color="green" role="status">
          {send.data.message}
        </Alert>
      ) : (
        <form onSubmit={form.onSubmit((values) => void submit(values), (errors) => setError(firstMessage(errors)))}>
          <Stack gap="sm">
            <Text size="sm">Links work once, for a limited time. Enter your email address and we will send you a new one.</Text>
            {error && (
              <Text size="sm" c="red" role="alert">
                {error}
              </Text>
            )}
            <TextInput label="Email" type="email" autoComplete="email" {...withoutError(form.getInputProps('email'))} />
            <Button type="submit" loading={send.isPending}>
              Send me a new link
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
