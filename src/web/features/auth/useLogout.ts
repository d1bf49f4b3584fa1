import { useState } from 'react';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { signOutAsking } from '../../offline/logout';
import { useOutbox } from '../../offline/OfflineSync';

/** Why Logout waits without signal: the session lives in a cookie that only the server can end. */
export const LOGOUT_NEEDS_SIGNAL =
  'Logout needs the server to end your session on this phone. Try again when you have signal; until then you stay signed in here.';

/**
 * Logout (SPEC §2), for the menu and the User page (issue 27): with changes waiting here it asks
 * first (signOutAsking), ends this device's session on the server and goes to /login. Without
 * signal it says why it cannot yet, instead of hiding a session that the next reload with signal
 * would bring back.
 */
export function useLogout(onDone?: () => void) {
  const navigate = useNavigate();
  const { online } = useOutbox();
  const [busy, setBusy] = useState(false);
  const refuse = () => notifications.show({ color: 'orange', title: 'No signal', message: LOGOUT_NEEDS_SIGNAL });
  const logout = async () => {
    if (!online) return refuse();
    setBusy(true);
    try {
      if (!(await signOutAsking())) return;
      onDone?.();
      navigate('/login', { replace: true });
    } catch {
      refuse();
    } finally {
      setBusy(false);
    }
  };
  return { logout: () => void logout(), busy, online };
}
