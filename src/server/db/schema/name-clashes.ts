import { integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What the look-alike migration (migration *_look_alike_names.sql, docs/product/sessions-and-safety.md §9) could not merge on its
 * own: rows whose job number, unit code or pole + line became equal to another row's once
 * normalised. Those rows are left as they were and listed here, one row each, for a person to
 * rename or merge; the server logs how many there are at start (main.ts). Delete a row once it
 * has been dealt with.
 */
export const nameClashes = pgTable('name_clashes', {
  id: serial('id').primaryKey(),
  /** 'jobs.job_number', 'units.code' or 'poles.pole_name+line_name'. */
  kind: text('kind').notNull(),
  companyId: integer('company_id').notNull(),
  /** The id of the row in its table (jobs, units or poles). */
  rowId: integer('row_id').notNull(),
  /** The value as stored (for poles: pole name, a tab, line name). */
  original: text('original').notNull(),
  /** What it is once normalised: the rows sharing this (and a company, utility) clash. */
  normalized: text('normalized').notNull(),
  foundAt: timestamp('found_at', { withTimezone: true }).notNull().defaultNow(),
});
