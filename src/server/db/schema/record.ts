import { integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from './core';
import { utilities } from './reference';

const stamp = (name: string) => timestamp(name, { withTimezone: true });

/**
 * One row per company and calendar day (in the company's time zone) whose daily digest has been
 * claimed (docs/product/records.md §3 "daily digest", decision 046). The primary key is what makes it exactly
 * once across processes: a process sends only after its `INSERT … ON CONFLICT` returned the row.
 * `sent_at` is set when every recipient has been sent to; a claim whose sender died before that
 * is taken over after the lease (`claimed_at` + DIGEST_LEASE), skipping `sent_to`.
 */
export const digestRuns = pgTable(
  'digest_runs',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The company's calendar day, 'YYYY-MM-DD'. */
    day: text('day').notNull(),
    claimedAt: stamp('claimed_at').notNull(),
    /** Which process holds the claim (host:pid:random), for the log and for taking it over. */
    claimedBy: text('claimed_by').notNull(),
    /** The users already sent to: a taken-over claim never mails them twice. */
    sentTo: integer('sent_to').array().notNull().default([]),
    sentAt: stamp('sent_at'),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day] })],
);

/**
 * The column mapping last used for a utility's workbook (docs/product/records.md §4 "saved mappings"): target →
 * column header, as `ticketsFile.ticketsMappings` / `libraryMappings`. Saved when a job save or an
 * Upload Spreadsheet imports with a mapping; the next workbook of the utility starts from it.
 */
export const savedMappings = pgTable(
  'saved_mappings',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    utilityId: integer('utility_id')
      .notNull()
      .references(() => utilities.id, { onDelete: 'cascade' }),
    ticketsMappings: jsonb('tickets_mappings').$type<Record<string, string | null>>().notNull(),
    libraryMappings: jsonb('library_mappings').$type<Record<string, string | null>>().notNull(),
    updatedAt: stamp('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.utilityId] })],
);
