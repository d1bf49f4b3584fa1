import { useState } from 'react';
import { Alert, Anchor, Button, Center, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { Navigate, useLocation, useNavigate, type Location } from 'react-router';
import { LIMITS } from '../../../shared/constants';
import { ERROR_CODE } from '../../../shared/error-codes';
import { MSG } from '../../../shared/messages';
import { ApiError } from '../../api/client';
import { setSession, useSession } from '../../api/session';
import { lazyDialog } from '../../components/lazyDialog';
import { usePageTitle } from '../../components/usePageTitle';
import { login } from './api/login';
import { SignedOutNotice } from '../../offline/WaitingNotice';

const ForgotPasswordModal = lazyDialog(() => import('./ForgotPasswordModal').then((m) => m.ForgotPasswordModal));

/** SPEC §2 Login: email and password, inputs disabled while signing in, the spec's messages. */
export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const { status, ended } = useSession();
  // Signed out by the server: the same person most likely signs in again.
  const [email, setEmail] = useState(ended?.email ?? '');
  const [password, setPassword] = useState('');
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [forgotOpen, setForgotOpen] = useState(false);
  usePageTitle('Log In');

  const from = (location.state as { from?: Location } | null)?.from;
  const target = from ? `${from.pathname}${from.search}${from.hash}` : '/jobs';
  if (status === 'in' && !loading) return <Navigate to={target} replace />;

  async function submit() {
    setError(null);
    setNotice(null);
    if (email.trim().length < LIMITS.emailMin || password.length < LIMITS.passwordMin) {
      setError(MSG.loginTooShort);
      return;
    }
    setLoading(true);
    try {
      const session = await login({ email: email.trim(), password });
      setSession(session.user);
      navigate(target, { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) setError(err.message || MSG.loginWrong);
      else if (err instanceof ApiError && err.code === ERROR_CODE.loginUnverified) setError(MSG.loginUnverified);
      else setError(err instanceof ApiError ? err.message : MSG.generic);
    } finally {
      setLoading(false);
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
            <Title order={1} size="h2" ta="center">
              Linecrew
            </Title>
            <SignedOutNotice />
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            {notice && (
              <Alert color="green" role="status">
                {notice}
              </Alert>
            )}
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              disabled={loading}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              disabled={loading}
            />
            <Button type="submit" loading={loading} fullWidth>
              Log In
            </Button>
            <Anchor component="button" type="button" size="sm" onClick={() => setForgotOpen(true)}>
              Forgot Password?
            </Anchor>
          </Stack>
        </form>
      </Paper>
      <ForgotPasswordModal opened={forgotOpen} onClose={() => setForgotOpen(false)} initialEmail={email} onSent={(message) => {
          // The link is on its way: an earlier "wrong password" no longer applies.
          setError(null);
          setNotice(message);
        }}
      />
    </Center>
  );
}
