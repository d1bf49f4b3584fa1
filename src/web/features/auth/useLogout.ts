import { useState } from 'react';
import { useNavigate } from 'react-router';
import { signOutAsking } from '../../offline/logout';
import { useOutbox } from '../../offline/OfflineSync';

/**
 * Logout (docs/product/screens.md), for the menu and the User page (issue 27): with changes waiting here it asks
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
      if (!(await signOutAsking())) return;
      onDone?.();
      navigate('/login', { replace: true });
    } finally {
      setBusy(false);
    }
  };
  return { logout: () => void logout(), busy, online };
}
