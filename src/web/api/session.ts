import { useSyncExternalStore } from 'react';
import { SESSION_COOKIE } from '../../shared/constants';
import { cookieDomainFor } from '../../shared/cookie';
import type { SessionUser } from '../../shared/auth.schemas';

/**
 * The session of SPEC §4: logged in exactly when the linecrew_token cookie exists. The user
 * object is kept beside it in localStorage for display; the role comes from the token itself.
 */
const USER_KEY = 'linecrew_user';
const listeners = new Set<() => void>();

function readCookie(name: string): string | null {
  const hit = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : null;
}

function writeCookie(value: string | null) {
  const domain = cookieDomainFor(window.location.hostname);
  const attrs = [`path=/`, `SameSite=Strict`, ...(domain ? [`domain=${domain}`] : [])];
  if (window.location.protocol === 'https:') attrs.push('Secure');
  document.cookie =
    value === null
      ? `${SESSION_COOKIE}=; ${attrs.join('; ')}; expires=Thu, 01 Jan 1970 00:00:00 GMT`
      : `${SESSION_COOKIE}=${encodeURIComponent(value)}; ${attrs.join('; ')}; max-age=${7 * 24 * 3600}`;
}

export function getToken(): string | null {
  return readCookie(SESSION_COOKIE);
}

export interface TokenClaims {
  userId: number;
  companyId: number;
  roleId: number;
  exp?: number;
}

/** Decodes (does not verify: the server does) the token's claims for display decisions. */
export function decodeToken(token: string | null): TokenClaims | null {
  if (!token) return null;
  try {
    const payload = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(atob(payload)) as TokenClaims;
  } catch {
    return null;
  }
}

export function setSession(token: string, user: SessionUser) {
  writeCookie(token);
  localStorage.setItem(USER_KEY, JSON.stringify(user));
  emit();
}

export function clearSession() {
  writeCookie(null);
  localStorage.removeItem(USER_KEY);
  emit();
}

function emit() {
  snapshot = computeSnapshot();
  listeners.forEach((l) => l());
}

export interface Session {
  token: string | null;
  claims: TokenClaims | null;
  user: SessionUser | null;
}

function computeSnapshot(): Session {
  const token = getToken();
  let user: SessionUser | null = null;
  try {
    user = token ? (JSON.parse(localStorage.getItem(USER_KEY) ?? 'null') as SessionUser | null) : null;
  } catch {
    user = null;
  }
  return { token, claims: decodeToken(token), user };
}

let snapshot: Session = typeof document === 'undefined' ? { token: null, claims: null, user: null } : computeSnapshot();

/** The current session; components re-render on login and logout. */
export function useSession(): Session {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => {
      // The cookie may have been removed elsewhere (another tab, expiry): notice it.
      if (snapshot.token !== getToken()) snapshot = computeSnapshot();
      return snapshot;
    },
  );
}
