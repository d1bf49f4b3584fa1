import { and, desc, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { sessions } from '../../db/schema/index';

/** Session rows (docs/product/sessions-and-safety.md §4): the only place with SQL for them. */

export const insertSession = (db: DbOrTx, values: typeof sessions.$inferInsert) => db.insert(sessions).values(values);

/** My sessions that have not expired, the most recently seen first. */
export const listSessions = (db: DbOrTx, userId: number) =>
  db
    .select({
      id: sessions.id,
      browser: sessions.browser,
      system: sessions.system,
      address: sessions.address,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));

/** Ends one session of this user; the number ended (0 when it is not theirs or already ended). */
export async function endSession(db: DbOrTx, userId: number, sessionId: string): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return rows.length;
}

/** Ends every session of the user (logout-all, a password reset), or every one but `keep`. */
export async function endAllSessions(db: DbOrTx, userId: number, keep?: string): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), keep ? ne(sessions.id, keep) : undefined))
    .returning({ id: sessions.id });
  return rows.length;
}

/**
 * Last seen moves forward only when it is older than `minAgeMs`: one write a minute per active
 * session at most, and none when two requests of one page race (the condition is in the UPDATE).
 */
export const touchSession = (db: DbOrTx, sessionId: string, address: string, minAgeMs: number) =>
  db
    .update(sessions)
    .set({ lastSeenAt: sql`now()`, address })
    .where(and(eq(sessions.id, sessionId), lt(sessions.lastSeenAt, sql`now() - make_interval(secs => ${minAgeMs / 1000})`)));

/** Rows past their token's expiry carry nothing: dropped now and then at sign-in. */
export const sweepExpiredSessions = (db: DbOrTx) => db.delete(sessions).where(lt(sessions.expiresAt, sql`now()`));
