import { confirmDialog } from '../components/confirm';
import { currentUser, signOut } from '../api/session';
import { outbox } from './outbox';
import { logoutWarning } from './waiting';

/**
 * Logout as every Logout button does it (docs/product/sessions-and-safety.md §5): with changes of mine still waiting on this
 * device, it first says what happens to them (they stay, and go when I sign in here again) and
 * lets me stay. Resolves false when I chose to stay signed in.
 */
export async function signOutAsking(): Promise<boolean> {
  const me = currentUser();
  const waiting = outbox.getSnapshot().entries.length;
  if (me && waiting > 0) {
    const yes = await confirmDialog({
      title: 'Changes are waiting on this device',
      message: logoutWarning(waiting, me),
      confirmLabel: 'Log out anyway',
      cancelLabel: 'Stay logged in',
      danger: true,
    });
    if (!yes) return false;
  }
  try {
    await signOut();
  } catch {
    // No network: this page is signed out all the same (signOut cleared it); the server's
    // session ends when it expires or is ended from another device.
  }
  return true;
}
