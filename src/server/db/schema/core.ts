import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

export const companies = pgTable('companies', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  /** IANA zone used where the spec shows a local time (export completion date). */
  timeZone: text('time_zone').notNull().default('America/New_York'),
  /** ISO 4217 code of every amount the company prices and invoices in (docs/product/billing.md §4). */
  currency: text('currency').notNull().default('USD'),
  /**
   * Evidence (docs/product/records.md §7, §8): a photo farther than this many metres from its
   * ticket's pole is flagged `far_from_pole`; a Complete ticket is evidenced with at least
   * `evidence_photos_required` unflagged photos (0 turns the rule off).
   */
  evidenceRadiusM: integer('evidence_radius_m').notNull().default(100),
  evidencePhotosRequired: integer('evidence_photos_required').notNull().default(1),
  /**
   * Last invoice number given (INV-000001…). Taken with `UPDATE … RETURNING`, whose row lock
   * also queues two invoices of one company behind each other, on every process.
   */
  lastInvoiceNumber: integer('last_invoice_number').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Role ids are fixed (1–6, docs/product/roles-and-statuses.md §1); each company may rename them. */
export const companyRoles = pgTable(
  'company_roles',
  {
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    roleId: integer('role_id').notNull(),
    displayRoleName: text('display_role_name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.roleId] })],
);

/** Users are the crew members; a user with no password has not accepted the invitation yet. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    roleId: integer('role_id').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phoneNumber: text('phone_number'),
    passwordHash: text('password_hash'),
    crewStatus: integer('crew_status').notNull().default(1),
    foremanId: integer('foreman_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    createdDate: timestamp('created_date', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Sign-in is by email alone, so an address names one account across all companies.
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    index('users_company_idx').on(t.companyId, t.roleId),
  ],
);

/**
 * One row per sign-in (docs/product/sessions-and-safety.md): the token carries the row's id, and the auth check reads the
 * row on every request (plugins/auth.ts), so a session ended here (logout, "everywhere", a
 * password reset) is refused on its next request by every process. Ended sessions are deleted;
 * rows past `expires_at` (the token's own expiry) are swept at sign-in.
 */
export const sessions = pgTable(
  'sessions',
  {
    /** Random (crypto.randomUUID), so an id seen in one's own list says nothing about others'. */
    id: uuid('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** Summaries of the user agent at sign-in ("Chrome 126", "Android 14"), not the raw header. */
    browser: text('browser').notNull(),
    system: text('system').notNull(),
    /** The client address last seen (at sign-in, then with last_seen_at). */
    address: text('address'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Moved forward at most once a minute (SESSION_TOUCH_MS), not written on every request. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** sha256 of the token: a leaked table cannot be used to reset passwords. */
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('password_reset_tokens_hash_unique').on(t.tokenHash)],
);

/**
 * Attempt counters of the sign-in, sign-up and mail throttles (modules/auth/throttle.repository.ts), one
 * row per key and fixed window, in the database so that every app process counts together.
 */
export const authThrottle = pgTable('auth_throttle', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull().defaultNow(),
});
