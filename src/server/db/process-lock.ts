import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from './client';

/**
 * "Is the process that claimed this still alive?", answered by PostgreSQL itself: each app
 * process holds a session-level advisory lock on a random key of its own for as long as it runs,
 * on a connection of its own. When the process dies its connection closes and the lock is gone
 * at once, in every process's view (pg_locks), with no heartbeat and no timeout to wait out.
 * On PGlite the database lives inside the one process (the folder lock, lock.ts): a row left by
 * an earlier run names a lock that no longer exists, which is just as true.
 */
export interface ProcessLock {
  /** The lock's key, recorded on what this process holds (idempotency claims). */
  readonly key: number;
  release(): Promise<void>;
}

/** A positive key below 2^48: a safe integer, and the bigint advisory lock space has room. */
const newKey = () => randomBytes(6).readUIntBE(0, 6) + 1;

/**
 * True while some session of this database holds the advisory lock `holder` (a bigint column or
 * value). A bigint key shows in pg_locks as classid (high 32 bits) and objid (low 32), objsubid 1.
 */
export const holderAlive = (holder: SQL | unknown) => sql`exists (
  select 1 from pg_locks l
  where l.locktype = 'advisory' and l.granted and l.objsubid = 1
    and l.database = (select oid from pg_database where datname = current_database())
    and ((l.classid::bigint << 32) | l.objid::bigint) = ${holder})`;

export async function holdProcessLock(db: Db, onError: (err: unknown) => void = () => {}): Promise<ProcessLock> {
  const key = newKey();
  const client = (db as unknown as { $client: unknown }).$client;
  if (!(client instanceof pg.Pool)) {
    // PGlite: one session for the whole process; the lock lasts until the database is closed.
    await db.execute(sql`select pg_advisory_lock(${key})`);
    return { key, release: async () => void (await db.execute(sql`select pg_advisory_unlock(${key})`).catch(() => {})) };
  }
  // A connection outside the pool, so the pool never closes or reuses the one holding the lock.
  // If it drops while the process lives, it is opened and locked again: meanwhile this process's
  // claims look dead and a retry could run one of them a second time, which is the lesser harm
  // than keys stuck for minutes after every crash (decision 040).
  let closed = false;
  let current: pg.Client | undefined;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ ...client.options, keepAlive: true });
    c.on('error', (err) => {
      onError(err);
      if (closed) return;
      setTimeout(() => void connect().catch(onError), 1000).unref();
    });
    await c.connect();
    await c.query('select pg_advisory_lock($1)', [key]);
    current = c;
  };
  await connect();
  return {
    key,
    async release() {
      closed = true;
      await current?.end().catch(() => {});
    },
  };
}
