import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { SessionItem } from '../../../shared/auth.schemas';
import { formatLongDate } from '../../../shared/dates';
import { ApiError } from '../../api/client';
import { confirmDialog } from '../../components/confirm';
import { LoadState } from '../../components/LoadState';
import { useEndSession, useLogoutOthers, useMySessions } from './api/sessions';

/** "Last seen just now", "… 12 minutes ago", "… 3 hours ago", or the date: when a device was last used. */
export function lastSeenText(iso: string, now = Date.now()): string {
  const minutes = Math.floor((now - Date.parse(iso)) / 60_000);
  // Last seen moves at most once a minute on the server (docs/product/sessions-and-safety.md): two minutes is "just now".
  if (minutes < 2) return 'Last seen just now';
  if (minutes < 60) return `Last seen ${minutes} minutes ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `Last seen ${hours === 1 ? '1 hour' : `${hours} hours`} ago`;
  return `Last seen ${formatLongDate(iso)}`;
}

function SessionRow({ session, onEnd, ending }: { session: SessionItem; onEnd: () => void; ending: boolean }) {
  const device = `${session.browser} on ${session.system}`;
  return (
    <Paper withBorder p="sm" component="li" aria-label={session.current ? `This device: ${device}` : device}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={2} miw={0} style={{ flex: 1 }}>
          <Group gap="xs">
            <Text fw={600}>{device}</Text>
            {session.current && <Badge variant="light">This device</Badge>}
          </Group>
          <Text size="sm" c="dimmed">
            {session.current ? 'Active now' : lastSeenText(session.last_seen_at)}
            {session.address ? ` · ${session.address}` : ''}
          </Text>
          <Text size="sm" c="dimmed">
            Signed in {formatLongDate(session.created_at)}
          </Text>
        </Stack>
        {!session.current && (
          <Button variant="default" size="compact-sm" style={{ flexShrink: 0 }} onClick={onEnd} loading={ending} aria-label={`Sign out ${device}`}>
            Sign out
          </Button>
        )}
      </Group>
    </Paper>
  );
}

/**
 * "Where you're signed in" on the User page (docs/product/sessions-and-safety.md): one row per sign-in, this device
 * first, with Sign out per other device and "Sign out everywhere else". This device signs out
 * with Logout, which asks first when changes are still waiting on it.
 */
export function SessionsCard() {
  const query = useMySessions();
  const end = useEndSession();
  const others = useLogoutOthers();
  const sessions = query.data?.sessions;
  const failure = end.error ?? others.error;

  async function signOutOthers() {
    const yes = await confirmDialog({
      title: 'Sign out everywhere else',
      message:
        'Every other phone, tablet and computer signed in as you will be signed out. Changes waiting on them stay there and are sent once you sign in on them again.',
      confirmLabel: 'Sign out everywhere else',
      cancelLabel: 'Cancel',
    });
    if (yes) others.mutate();
  }

  return (
    <Paper withBorder p="lg" mt="md">
      <Stack>
        <Title order={2} size="h3">
          Where you're signed in
        </Title>
        {failure && (
          <Alert color="red" role="alert">
            {failure instanceof ApiError ? failure.message : 'Could not sign that device out. Try again.'}
          </Alert>
        )}
        {others.data && (
          <Alert color="green" role="status">
            {others.data.ended === 1 ? 'Signed out 1 other device.' : `Signed out ${others.data.ended} other devices.`}
          </Alert>
        )}
        {!sessions ? (
          <LoadState query={query} loading="Loading your sessions" failed="Your sessions could not be loaded" />
        ) : (
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Your sessions">
            {sessions.map((s) => (
              <SessionRow key={s.id} session={s} ending={end.isPending && end.variables === s.id} onEnd={() => end.mutate(s.id)} />
            ))}
          </Stack>
        )}
        {sessions && sessions.length > 1 && (
          <Group>
            <Button variant="default" color="red" onClick={() => void signOutOthers()} loading={others.isPending}>
              Sign out everywhere else
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
