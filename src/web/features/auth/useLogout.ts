import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useOutbox } from '../../offline/OfflineSync';

/**
 * Logout (docs/product/screens.md), for the menu and the User page (docs/product/sessions-and-safety.md §5): with changes waiting here it asks
 * first (signOutAsking), ends this device's session on the server and goes to /login. Without
 * signal the device is signed out all the same (signOutAsking); `online` tells the page so.
 */
export function useLogout(onDone?: () => void) {
  const navigate = useNavigate();
  const { online } = useOutbox();
  const [busy, setBusy] = useState(false);
  const logout = async () => {
    setBusy(true);
    try {
      // Loaded on the tap: every page has the button, few presses it (My Work's first load).
      const { signOutAsking } = await import('../../offline/logout');
      if (!(await signOutAsking())) return;
      onDone?.();
      navigate('/login', { replace: true });
    } finally {
      setBusy(false);
    }
  };
  return { logout: () => void logout(), busy, online };
}
