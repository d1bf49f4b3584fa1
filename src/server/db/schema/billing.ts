import { date, doublePrecision, index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies, users } from './core';
import { jobs, tickets } from './jobs';

const stamp = (name: string) => timestamp(name, { withTimezone: true });
const money = (name: string) => numeric(name, { precision: 16, scale: 2 });

/** An invoice of a job's completed work (docs/product/billing.md §4). Its lines are frozen when it is made. */
export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    jobId: integer('job_id').notNull().references(() => jobs.id, { onDelete: 'cascade' }),
    /** `INV-000001`…, unique per company. */
    number: text('number').notNull(),
    currency: text('currency').notNull(),
    total: money('total').notNull(),
    throughDate: date('through_date', { mode: 'string' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: stamp('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('invoices_company_number_unique').on(t.companyId, t.number), index('invoices_job_idx').on(t.jobId)],
);

/** One priced unit of one ticket on an invoice: a copy, so later edits never change it. */
export const invoiceLines = pgTable(
  'invoice_lines',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    invoiceId: integer('invoice_id').notNull().references(() => invoices.id, { onDelete: 'cascade' }),
    /** The ticket it came from; null once that ticket is deleted (the line stays). */
    ticketId: integer('ticket_id').references(() => tickets.id, { onDelete: 'set null' }),
    poleName: text('pole_name').notNull().default(''),
    lineName: text('line_name').notNull().default(''),
    workOrder: text('work_order').notNull().default(''),
    code: text('code').notNull(),
    description: text('description').notNull().default(''),
    uom: text('uom').notNull().default(''),
    quantity: doublePrecision('quantity').notNull(),
    unitPrice: numeric('unit_price', { precision: 14, scale: 2 }),
    amount: money('amount').notNull(),
  },
  (t) => [index('invoice_lines_invoice_idx').on(t.invoiceId)],
);

/**
 * Which invoice billed a ticket. The ticket id is the key, so the database itself refuses a
 * ticket on a second invoice, whichever process tries (docs/product/billing.md §5 "never billed twice").
 */
export const billedTickets = pgTable(
  'billed_tickets',
  {
    ticketId: integer('ticket_id')
      .primaryKey()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    invoiceId: integer('invoice_id').notNull().references(() => invoices.id, { onDelete: 'cascade' }),
  },
  (t) => [index('billed_tickets_invoice_idx').on(t.invoiceId)],
);
