import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies, users } from './core';

/**
 * API tokens (docs/product/integrations.md §API tokens, decision 049): a named secret an Admin
 * makes for another system. Only the SHA-256 of the secret is kept (the secret is 32 random
 * bytes: a fast hash is enough, nothing to guess). The auth check reads the row by that hash on
 * every request (plugins/auth.ts), so a revoked (deleted) token is refused at once by every
 * process. The token acts as its creator, at `role_id` or the creator's current role, whichever
 * may do less.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** Who made it, and whom it acts as: deactivating that person stops the token. */
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    roleId: integer('role_id').notNull(),
    /** Hex SHA-256 of the whole secret (`lc_…`). */
    tokenHash: text('token_hash').notNull(),
    /** The secret's last 4 characters, so a person can tell which token a system holds. */
    hint: text('hint').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Null: never expires. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** Moved forward at most once a minute, as a session's last seen. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_tokens_hash_unique').on(t.tokenHash), index('api_tokens_company_idx').on(t.companyId)],
);
