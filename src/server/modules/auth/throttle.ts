import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { authThrottle } from '../../db/schema/index';

/** DESIGN §5: every throttle counts in windows of 15 minutes. */
const THROTTLE_WINDOW_MINUTES = 15;

/** How many attempts each kind of key allows per window. */
export const THROTTLE_LIMITS = {
  /** Sign-in guesses for one account from one client address (DESIGN §5). */
  loginAccountAddress: 10,
  /** Sign-in guesses from one address across all accounts (password spraying). */
  loginAddress: 50,
  /** New accounts from one address. */
  signUpAddress: 10,
  /** Reset mails for one address asked from one client address. */
  forgotAccountAddress: 5,
  /** Reset mails asked from one client address across all accounts. */
  forgotAddress: 30,
  /** Invitation or reset mails to one crew member, whoever asks. */
  inviteMember: 5,
  /**
   * New crew members (each mailed an invitation) added by one office account. High enough for an
   * office entering a whole crew in one sitting (the bench data adds 60), low enough that a
   * taken-over office account cannot be used to mail thousands of addresses.
   */
  invitesBy: 100,
} as const;

const fresh = sql`${authThrottle.windowStart} > now() - make_interval(mins => ${THROTTLE_WINDOW_MINUTES})`;

/**
 * Counts one attempt under `key` and says whether it is within `limit`. One statement
 * (INSERT … ON CONFLICT DO UPDATE … RETURNING), so parallel requests, in one process or many,
 * each get their own number: twenty guesses at once see 1…20, never ten times "9".
 */
export async function take(db: DbOrTx, key: string, limit: number): Promise<boolean> {
  const [row] = await db
    .insert(authThrottle)
    .values({ key, count: 1 })
    .onConflictDoUpdate({
      target: authThrottle.key,
      set: {
        count: sql`case when ${fresh} then ${authThrottle.count} + 1 else 1 end`,
        windowStart: sql`case when ${fresh} then ${authThrottle.windowStart} else now() end`,
      },
    })
    .returning({ count: authThrottle.count });
  return row.count <= limit;
}

/** Returns one attempt that turned out not to be a guess (a successful sign-in). */
export const giveBack = (db: DbOrTx, key: string) =>
  db
    .update(authThrottle)
    .set({ count: sql`greatest(${authThrottle.count} - 1, 0)` })
    .where(eq(authThrottle.key, key));

/** Forgets a key: the account's owner proved the password from this address. */
export const clear = (db: DbOrTx, key: string) => db.delete(authThrottle).where(eq(authThrottle.key, key));

/** Rows of windows that have ended carry no information; dropped now and then by the caller. */
export const sweep = (db: DbOrTx) =>
  db.delete(authThrottle).where(sql`${authThrottle.windowStart} < now() - make_interval(mins => ${THROTTLE_WINDOW_MINUTES})`);

/** Keys: lower-cased e-mail and client address, so "A@x" and "a@x" share one budget. */
export const keys = {
  login: (email: string, ip: string) => `login:${email.trim().toLowerCase()}|${ip}`,
  loginAddress: (ip: string) => `login-ip:${ip}`,
  signUp: (ip: string) => `signup-ip:${ip}`,
  forgot: (email: string, ip: string) => `forgot:${email.trim().toLowerCase()}|${ip}`,
  forgotAddress: (ip: string) => `forgot-ip:${ip}`,
  invite: (userId: number) => `invite:${userId}`,
  inviteBy: (userId: number) => `invites-by:${userId}`,
};
