import { sql } from 'drizzle-orm';
import { index, integer, numeric, pgTable, serial, text, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from './core';

export const utilities = pgTable(
  'utilities',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
  },
  (t) => [uniqueIndex('utilities_company_code_unique').on(t.companyId, t.code)],
);

export const specs = pgTable(
  'specs',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    specNumber: text('spec_number').notNull(),
  },
  (t) => [
    uniqueIndex('specs_company_number_unique').on(t.companyId, t.specNumber),
    index('specs_prefix_idx').on(t.companyId, sql`lower(${t.specNumber}) text_pattern_ops`),
  ],
);

export const accessTypes = pgTable('access_types', {
  id: serial('id').primaryKey(),
  companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
});

export const permitTypes = pgTable('permit_types', {
  id: serial('id').primaryKey(),
  companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
});

/** The unit library: per company and utility, upserted by code on Excel import (docs/product/roles-and-statuses.md §1). */
export const units = pgTable(
  'units',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    utilityId: integer('utility_id').notNull().references(() => utilities.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    description: text('description').notNull().default(''),
    family: text('family').notNull().default(''),
    type: text('type').notNull().default(''),
    action: text('action').notNull().default(''),
    uom: text('uom').notNull().default(''),
    notes: text('notes').notNull().default(''),
    /** Price of one unit in the company's currency (docs/product/billing.md §2): exact, null = not priced. */
    unitPrice: numeric('unit_price', { precision: 14, scale: 2 }),
    /** As poles.import_job_id: the job whose pending import created the unit (decision 027). */
    importJobId: integer('import_job_id'),
  },
  (t) => [
    uniqueIndex('units_company_utility_code_unique').on(t.companyId, t.utilityId, t.code),
    // What a task's (unit_id, company_id) refers to (ticket_tasks_unit_company_fk).
    unique('units_id_company_unique').on(t.id, t.companyId),
    index('units_company_idx').on(t.companyId),
  ],
);
