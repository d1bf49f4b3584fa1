import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { companies, users } from './core';

/**
 * The record of every change (docs/product/records.md §1, docs/decisions/044-history-recorded-with-each-change.md): one row per
 * changed field (or per created / deleted / imported record), written in the transaction of the
 * change by the history module's recorder. `ticket_id` and `job_id` carry no foreign key on
 * purpose: a deleted ticket's or job's record stays (who deleted it, and what it held).
 */
export const history = pgTable(
  'history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** Who made the change; null once that user is deleted (the entry stays). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /**
     * The API token the user acted through (decision 049: a token acts as its creator), null for
     * a change made in the app. No foreign key and the name kept here: revoking a token deletes
     * its row, and the record must still say which system made the change.
     */
    apiTokenId: integer('api_token_id'),
    apiTokenName: text('api_token_name'),
    /** create, update, delete, import, merge, bill, unlock */
    action: text('action').notNull(),
    /** job, ticket, crew, invoice */
    entity: text('entity').notNull(),
    entityId: integer('entity_id').notNull(),
    ticketId: integer('ticket_id'),
    jobId: integer('job_id'),
    /** The API's field name (`hospital_name`, `status`, `tasks`); null for a whole record. */
    field: text('field'),
    old: jsonb('old'),
    new: jsonb('new'),
  },
  (t) => [
    index('history_ticket_idx').on(t.companyId, t.ticketId, t.id),
    index('history_job_idx').on(t.companyId, t.jobId, t.id),
    index('history_entity_idx').on(t.companyId, t.entity, t.entityId, t.id),
  ],
);
