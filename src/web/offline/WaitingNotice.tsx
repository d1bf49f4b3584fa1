import { useEffect, useState } from 'react';
import { Alert, Text } from '@mantine/core';
import type { SessionUser } from '../../shared/auth.schemas';
import { useSession } from '../api/session';
import { useOutbox } from './OfflineSync';
import { waitingOnDevice, waitingText, type Waiting } from './waiting';

/** Every user's changes waiting on this device, read again when the queue or the session changes. */
function useWaitingOnDevice(known: SessionUser | null): Waiting[] {
  const { entries } = useOutbox();
  const { status } = useSession();
  const [waiting, setWaiting] = useState<Waiting[]>([]);
  useEffect(() => {
    let live = true;
    void waitingOnDevice(known).then((w) => live && setWaiting(w));
    return () => {
      live = false;
    };
  }, [entries, status, known]);
  return waiting;
}

/**
 * On the sign-in page (docs/product/sessions-and-safety.md §4): "Signed out." when the server ended this device's session
 * (signed out elsewhere, a password reset), and whose changes wait here and when they go.
 */
export function SignedOutNotice() {
  const { ended } = useSession();
  const waiting = useWaitingOnDevice(ended);
  if (!ended && waiting.length === 0) return null;
  const lines = waiting.map(waitingText);
  const text = ended ? ['Signed out.', ...(lines.length ? lines : ['Sign in again to go on.'])] : lines;
  return (
    <Alert color="yellow" role="status" data-testid="signed-out-notice">
      <Text size="sm">{text.join(' ')}</Text>
    </Alert>
  );
}

/**
 * Under the header for whoever is signed in on a shared device: someone else's changes wait here,
 * and they are not sent under this account.
 */
export function OthersWaiting() {
  const { user } = useSession();
  const others = useWaitingOnDevice(null).filter((w) => w.userId !== user?.id);
  if (!user || others.length === 0) return null;
  return (
    <Alert color="yellow" radius={0} py={6} role="note" aria-label="Changes of another user" data-testid="others-waiting">
      <Text size="sm">
        {others.map(waitingText).join(' ')} They are not sent with your sign-in.
      </Text>
    </Alert>
  );
}
