import { sql } from 'drizzle-orm';
import { bigint, check, customType, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './core';

/** Raw bytes: node-postgres gives a Buffer, PGlite a Uint8Array; callers always get a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * One row per `Idempotency-Key` a user sent with a state-changing call (docs/product/field-mode.md §6 "replays
 * apply once", plugins/idempotency.ts, decision 019). In PostgreSQL so that every app process
 * sees the same claims. Rows older than 24 hours are ignored and purged.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** sha256 (hex) of method, path with query and the body as parsed (plugins/idempotency.ts). */
    requestHash: text('request_hash').notNull(),
    /** 'running' while the first request is being applied, then 'done'. */
    state: text('state').notNull(),
    statusCode: integer('status_code'),
    contentType: text('content_type'),
    /** The reply's bytes as sent; null while running, or when too large to keep. */
    body: bytea('body'),
    /**
     * The app process applying a running claim: the key of the PostgreSQL advisory lock that
     * process holds for as long as it lives (db/process-lock.ts). When no session holds that lock
     * any more the process has died, and a retry takes the key over at once. Null in rows claimed
     * before this column existed: those wait out the lease.
     */
    holder: bigint('holder', { mode: 'number' }),
    /** When the key was claimed: the 24 hours and the lease of a running claim count from here. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    index('idempotency_keys_created_idx').on(t.createdAt),
    check('idempotency_keys_state_check', sql`${t.state} in ('running', 'done')`),
  ],
);
