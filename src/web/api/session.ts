import { useSyncExternalStore } from 'react';
import { API_PREFIX, CSRF_HEADER } from '../../shared/constants';
import type { Profile, SessionUser } from '../../shared/auth.schemas';
import { companyToday } from '../../shared/dig-safe';
import { network } from './network';

/**
 * Who is signed in. The session token lives in an HttpOnly cookie that the server sets at
 * sign-in and clears at logout, so no script of the page can read it (or steal it); the page
 * learns who is signed in from the sign-in reply, and on load from GET /crew/myData. Until that
 * first answer the status is 'checking'.
 */
export interface TokenClaims {
  userId: number;
  companyId: number;
  roleId: number;
}

export interface Session {
  status: 'checking' | 'in' | 'out';
  user: SessionUser | null;
  /** The ids the UI decides with (role for navigation and buttons); the server checks again. */
  claims: TokenClaims | null;
  /**
   * Whose session the server ended while this page had it (a 401: signed out on another device,
   * a password reset): the sign-in page says so, and that their queued changes wait for them.
   */
  ended: SessionUser | null;
}

const listeners = new Set<() => void>();
let snapshot: Session = { status: 'checking', user: null, claims: null, ended: null };

/**
 * Who was signed in last, so that the app opens for them without network (a crew at the pole,
 * docs/product/field-mode.md). Only names and ids: the credential stays in the HttpOnly cookie, and the server
 * checks it on every call once the network is back.
 */
const REMEMBERED = 'linecrew.user';
function remember(user: SessionUser | null) {
  try {
    if (user) localStorage.setItem(REMEMBERED, JSON.stringify(user));
    else localStorage.removeItem(REMEMBERED);
  } catch {
    // Storage disabled: the app then needs the network to know who is signed in.
  }
}
function remembered(): SessionUser | null {
  try {
    const raw = localStorage.getItem(REMEMBERED);
    return raw ? (JSON.parse(raw) as SessionUser) : null;
  } catch {
    return null;
  }
}

function publish(user: SessionUser | null, ended: SessionUser | null = null) {
  remember(user);
  snapshot = user
    ? { status: 'in', user, claims: { userId: user.id, companyId: user.company_id, roleId: user.role_id }, ended: null }
    : { status: 'out', user: null, claims: null, ended };
  listeners.forEach((l) => l());
}

/** After sign-in or a password reset: the server has set the cookie; remember who it is. */
export function setSession(user: SessionUser) {
  publish(user);
}

/** The server said 401 (expired, or ended elsewhere): the page is signed out, and says whose session ended. */
export function clearSession() {
  publish(null, snapshot.user ?? snapshot.ended);
}

/** Who is signed in on this page now (null while checking or signed out). */
export const currentUser = (): SessionUser | null => snapshot.user;

/**
 * The company's calendar day, 'YYYY-MM-DD' (docs/product/records.md §5): expiry badges and Clear to
 * dig read it, on the office's screens and from a phone's offline copy alike. The zone comes with
 * who is signed in (remembered on the device); a device remembered by an earlier release has none
 * and reads the default zone until its next sign-in or refresh.
 */
export const companyDay = (): string => companyToday(new Date(), snapshot.user?.company_time_zone ?? undefined);

/** False once the server has said nobody is signed in. */
export const isSignedIn = () => snapshot.status !== 'out';

/** Headers every same-origin API call carries: the cookie alone may not change data (CSRF). */
export const csrfHeaders = { [CSRF_HEADER]: '1' } as const;

/** Asks the server who the cookie belongs to (on load, and when another tab may have changed it). */
export async function refreshSession(): Promise<void> {
  try {
    // Its own fetch, not apiFetch: the API client imports this module (clearSession), and this
    // call runs as the module loads. It reports to the network state as apiFetch does.
    let res: Response;
    try {
      res = await fetch(`${API_PREFIX}/crew/myData`, { headers: { Accept: 'application/json', ...csrfHeaders }, credentials: 'same-origin' });
    } catch (err) {
      network.unreachable();
      throw err;
    }
    network.reached();
    // No answer from the app (offline, or the server is down): whoever was signed in last
    // stays signed in on this device; their calls wait for the network (outbox) or say why.
    if (res.status >= 500) return publish(remembered());
    // A 401: the session ended while the app was closed; whoever was signed in is told so.
    if (!res.ok) return publish(null, res.status === 401 ? remembered() : null);
    const [me] = (await res.json()) as Profile[];
    publish({
      id: me.id,
      company_id: me.company_id,
      company_time_zone: me.company_time_zone,
      role_id: me.role_id,
      first_name: me.first_name,
      last_name: me.last_name,
      email: me.email,
    });
  } catch {
    publish(remembered());
  }
}

/** Run at sign-out, with the user who signs out (offline copies leave the device). */
export const signOutHooks = new Set<(userId: number) => void | Promise<void>>();

/** Logout (docs/product/screens.md, docs/product/sessions-and-safety.md §4): the server ends this device's session and clears the cookie. */
export async function signOut(): Promise<void> {
  const userId = snapshot.claims?.userId;
  if (userId != null) await Promise.all([...signOutHooks].map((hook) => hook(userId)));
  try {
    await fetch(`${API_PREFIX}/crew/logout`, { method: 'POST', headers: { Accept: 'application/json', ...csrfHeaders }, credentials: 'same-origin' });
  } finally {
    publish(null);
  }
}

if (typeof window !== 'undefined') void refreshSession();

/** The current session; components re-render on sign-in and logout. */
export function useSession(): Session {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => snapshot,
  );
}
