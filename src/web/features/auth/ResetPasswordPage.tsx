import { useState } from 'react';
import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate, useSearchParams } from 'react-router';
import { isWellFormedResetLink } from '../../../shared/auth.schemas';
import { LIMITS } from '../../../shared/constants';
import { ERROR_CODE } from '../../../shared/error-codes';
import { MSG } from '../../../shared/messages';
import { ApiError } from '../../api/client';
import { clearSession } from '../../api/session';
import { usePageTitle } from '../../components/usePageTitle';
import { requestNewLink } from './api/forgotPassword';
import { resetPassword } from './api/resetPassword';

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
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // The server's verdict on a well-formed link it does not know (used, expired, superseded).
  const [refused, setRefused] = useState(false);
  const linkValid = isWellFormedResetLink({ resetToken, userId }) && !refused;
  usePageTitle('Set your password');

  async function submit() {
    if (password.length < LIMITS.passwordMin || password !== confirm) {
      setError(MSG.resetMismatch);
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await resetPassword({ resetToken, userId: Number(userId), password });
      // The new password is set and every earlier session ended; sign in on the login page (SPEC §2).
      clearSession();
      notifications.show({ color: 'green', message: 'Your password is set. Log in with it now.' });
      navigate('/login', { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.code === ERROR_CODE.resetInvalid) setRefused(true);
      else setError(err instanceof ApiError ? err.message : MSG.generic);
    } finally {
      setSaving(false);
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
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void submit();
              }}
            >
              <Stack>
                <Text size="sm" c="dimmed">
                  Choose a password of at least {LIMITS.passwordMin} characters.
                </Text>
                {error && (
                  <Alert color="red" role="alert">
                    {error}
                  </Alert>
                )}
                <PasswordInput label="New Password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
                <PasswordInput label="Confirm Password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.currentTarget.value)} />
                <Button type="submit" loading={saving}>
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
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function send() {
    if (email.trim().length < LIMITS.emailMin) {
      setError('Enter the email address the link was sent to.');
      return;
    }
    setSending(true);
    setError(null);
    try {
      setSent((await requestNewLink(email.trim())).message);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : MSG.generic);
    } finally {
      setSending(false);
    }
  }

  return (
    <Stack>
      <Alert color="red" role="alert" title="This link cannot be used">
        {MSG.resetInvalid}
      </Alert>
      {sent ? (
        <Alert color="green" role="status">
          {sent}
        </Alert>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <Stack gap="sm">
            <Text size="sm">Links work once, for a limited time. Enter your email address and we will send you a new one.</Text>
            {error && (
              <Text size="sm" c="red" role="alert">
                {error}
              </Text>
            )}
            <TextInput label="Email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
            <Button type="submit" loading={sending}>
              Send me a new link
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
