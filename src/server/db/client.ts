import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Logger } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema/index';
import { lockDataDir } from './lock';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Repositories take either, so a service can run them inside its transaction. */
export type DbOrTx = Db | Tx;

/** The rows of a `db.execute` result: an array (postgres-js) or `{ rows }` (pg, PGlite). */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Counts SQL statements, so the benchmark can show that a route's query count is flat (no N+1). */
export const queryStats: { count: number; onQuery?: (query: string, params: unknown[]) => void } = { count: 0 };
const countingLogger: Logger = {
  logQuery(query, params) {
    queryStats.count++;
    // Bench hook (bench/lib/sql.ts): records a route's statements to time them as bare SQL.
    queryStats.onQuery?.(query, params);
  },
};

// Same JS types from both drivers: calendar dates stay 'YYYY-MM-DD' strings (never shifted by a
// time zone), bigint counts and numerics become numbers.
const DATE_OID = 1082;
const INT8_OID = 20;
const NUMERIC_OID = 1700;
pg.types.setTypeParser(DATE_OID, (v) => v);
pg.types.setTypeParser(INT8_OID, (v) => Number(v));
pg.types.setTypeParser(NUMERIC_OID, (v) => Number(v));

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies the committed SQL migrations. Call it inside withStartupLock when processes may race. */
  migrate(): Promise<void>;
  /** Runs fn while holding a cluster-wide lock (first-start seeding by one process only). */
  withStartupLock<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenOptions {
  databaseUrl?: string;
  /** PGlite data directory; undefined means in memory. */
  pgliteDir?: string;
  /** A PGlite dump (dumpDataDir) to start from: tests load a migrated template this way. */
  pgliteLoad?: Blob | File;
  poolSize?: number;
  /** Who holds the folder's lock, named to a second process that tries to open it (lock.ts). */
  purpose?: string;
}

const STARTUP_LOCK = 72_431_001;

/**
 * Settings of every PostgreSQL session the app opens (decision 054). The app's statements are
 * short reads and writes served to many clients at once, and planned from estimates:
 * - no JIT: a statement whose estimated cost crosses jit_above_cost (My Work's "needs photos"
 *   at 100,000 jobs) spent 2.5 s compiling for 58 ms of work;
 * - no parallel workers: starting them cost 100–500 ms on a busy 2-core machine for scans of a
 *   few ms (the jobs page's count and % complete), and ten clients at once use every core anyway.
 */
const SESSION_OPTIONS = '-c jit=off -c max_parallel_workers_per_gather=0';

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10, options: SESSION_OPTIONS });
    pool.on('error', () => {}); // an idle client dropped by the server must not crash the process
    const db = drizzlePg(pool, { schema, logger: countingLogger }) as unknown as Db;
    const withStartupLock = async <T>(fn: () => Promise<T>) => {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK]);
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => {});
        client.release();
      }
    };
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePg(drizzlePg(pool), { migrationsFolder }),
      withStartupLock,
      close: () => pool.end(),
    };
  }
  // One process per folder: a second one would lose acknowledged writes (lock.ts).
  const lock = opts.pgliteDir ? lockDataDir(opts.pgliteDir, opts.purpose ?? `node ${process.argv[1] ?? ''}`.trim()) : undefined;
  let client: PGlite;
  try {
    // Options go first: PGlite ignores loadDataDir when given as (undefined, options).
    client = new PGlite({
      dataDir: opts.pgliteDir,
      loadDataDir: opts.pgliteLoad,
      // The jobs list's "contains" index (migration 0026); PostgreSQL servers ship it in contrib.
      extensions: { pg_trgm },
      parsers: { [DATE_OID]: (v: string) => v, [INT8_OID]: (v: string) => Number(v), [NUMERIC_OID]: (v: string) => Number(v) },
    });
    await client.waitReady;
  } catch (err) {
    lock?.release();
    throw err;
  }
  const db = drizzlePglite(client, { schema, logger: countingLogger }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    // PGlite is one connection in one process (the folder lock above): no lock needed here.
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder }),
    withStartupLock: (fn) => fn(),
    close: async () => {
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}
