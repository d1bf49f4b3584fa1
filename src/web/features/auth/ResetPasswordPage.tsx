import { useState } from 'react';
import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate, useSearchParams } from 'react-router';
import { LIMITS } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import { ApiError } from '../../api/client';
import { clearSession } from '../../api/session';
import { resetPassword } from './api/resetPassword';

/** /resetPassword?resetToken=…&userId=… : choose a new password, then back to /login. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const resetToken = params.get('resetToken') ?? '';
  const userId = Number(params.get('userId'));
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const linkValid = resetToken.length > 0 && Number.isInteger(userId) && userId > 0;

  async function submit() {
    if (password.length < LIMITS.passwordMin || password !== confirm) {
      setError(MSG.resetMismatch);
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await resetPassword({ resetToken, userId, password });
      // The new password is set and every earlier session ended; sign in on the login page (SPEC §2).
      clearSession();
      notifications.show({ color: 'green', message: 'Your password is set. Log in with it now.' });
      navigate('/login', { replace: true });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : MSG.generic);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Center mih="80vh" p="md">
      <Paper withBorder shadow="sm" p="lg" w="100%" maw={380}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Stack>
            <Title order={3}>Set your password</Title>
            {!linkValid ? (
              <Alert color="red" role="alert">
                {MSG.resetInvalid}
              </Alert>
            ) : (
              <>
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
              </>
            )}
            <Button variant="subtle" onClick={() => navigate('/login')}>
              Back to Log In
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
