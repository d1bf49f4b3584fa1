import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { authThrottle } from '../../db/schema/index';

/** docs/product/sessions-and-safety.md §3: throttles count in windows of 15 minutes unless their limit says otherwise. */
const THROTTLE_WINDOW_MINUTES = 15;
/** docs/product/sessions-and-safety.md: taken-address answers are counted per hour. */
export const HOUR_WINDOW_MINUTES = 60;
/** The longest window any key uses: rows older than this carry no information. */
const LONGEST_WINDOW_MINUTES = HOUR_WINDOW_MINUTES;

/** How many attempts each kind of key allows per window. */
export const THROTTLE_LIMITS = {
  /** Sign-in guesses for one account from one client address (docs/product/api.md §1). */
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
  /**
   * "This e-mail address can't be used" answers to one user, per hour (docs/product/sessions-and-safety.md e-mail
   * discovery): enough for typos, too few to probe who has an account (HOUR_WINDOW_MINUTES).
   */
  emailTakenAnswers: 20,
  /** Wrong current passwords given by one signed-in user (changing the sign-in e-mail). */
  currentPassword: 10,
} as const;

const freshWithin = (minutes: number) => sql`${authThrottle.windowStart} > now() - make_interval(mins => ${minutes})`;

/**
 * Counts one attempt under `key` and says whether it is within `limit`. One statement
 * (INSERT … ON CONFLICT DO UPDATE … RETURNING), so parallel requests, in one process or many,
 * each get their own number: twenty guesses at once see 1…20, never ten times "9".
 */
export async function take(db: DbOrTx, key: string, limit: number, windowMinutes = THROTTLE_WINDOW_MINUTES): Promise<boolean> {
  const fresh = freshWithin(windowMinutes);
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

/**
 * Whether `key` has used its `limit` in the current window, without counting an attempt: for a
 * route that must refuse every request once the budget is gone, not only those that would spend it.
 */
export async function exhausted(db: DbOrTx, key: string, limit: number, windowMinutes = THROTTLE_WINDOW_MINUTES): Promise<boolean> {
  const [row] = await db
    .select({ count: authThrottle.count })
    .from(authThrottle)
    .where(sql`${authThrottle.key} = ${key} and ${freshWithin(windowMinutes)}`);
  return (row?.count ?? 0) >= limit;
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
  db.delete(authThrottle).where(sql`${authThrottle.windowStart} < now() - make_interval(mins => ${LONGEST_WINDOW_MINUTES})`);

/** Keys: lower-cased e-mail and client address, so "A@x" and "a@x" share one budget. */
export const keys = {
  login: (email: string, ip: string) => `login:${email.trim().toLowerCase()}|${ip}`,
  loginAddress: (ip: string) => `login-ip:${ip}`,
  signUp: (ip: string) => `signup-ip:${ip}`,
  forgot: (email: string, ip: string) => `forgot:${email.trim().toLowerCase()}|${ip}`,
  forgotAddress: (ip: string) => `forgot-ip:${ip}`,
  invite: (userId: number) => `invite:${userId}`,
  inviteBy: (userId: number) => `invites-by:${userId}`,
  emailTaken: (userId: number) => `email-taken-to:${userId}`,
  currentPassword: (userId: number) => `current-password:${userId}`,
};
