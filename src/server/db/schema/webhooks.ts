import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, foreignKey, index, integer, pgTable, serial, smallint, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { companies, users } from './core';

const stamp = (name: string) => timestamp(name, { withTimezone: true });

/**
 * An Admin's webhook endpoint (docs/product/integrations.md §4): where a company's events are
 * POSTed, signed with `secret` (`whsec_` + base64, Standard Webhooks). The secret is kept as is:
 * it is the key every delivery is signed with, so it cannot be stored hashed; replies never show
 * it after the one that created it.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    secret: text('secret').notNull(),
    /** Event types it receives (src/shared/webhooks.schemas WEBHOOK_EVENTS). */
    events: text('events').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: stamp('created_at').notNull().defaultNow(),
    updatedAt: stamp('updated_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_company_idx').on(t.companyId), unique('webhook_endpoints_id_company_unique').on(t.id, t.companyId)],
);

/**
 * The outbox (decision 050): one row per event per endpoint, written in the transaction of the
 * change, so an event exists exactly when its change committed. `body` is the JSON POSTed, as
 * bytes are signed: the same for every try (`event_id` is the `webhook-id`). A worker in each app
 * process claims due rows (`lease_until`, FOR UPDATE SKIP LOCKED) and sends them.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id').notNull(),
    endpointId: integer('endpoint_id').notNull(),
    /** `msg_…`: the event's id, the same on every endpoint and every try (`webhook-id`). */
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    body: text('body').notNull(),
    /** 'pending' until a 2xx ('delivered') or the last try of the schedule failed ('failed'). */
    state: text('state').notNull().default('pending'),
    /** Tries made in the current round (Resend starts a new round). */
    attempts: smallint('attempts').notNull().default(0),
    nextAttemptAt: stamp('next_attempt_at').notNull().defaultNow(),
    /** A claim: no other process takes the row before this time (longer than a try can last). */
    leaseUntil: stamp('lease_until'),
    createdAt: stamp('created_at').notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ name: 'webhook_deliveries_endpoint_company_fk', columns: [t.endpointId, t.companyId], foreignColumns: [webhookEndpoints.id, webhookEndpoints.companyId] }).onDelete(
      'cascade',
    ),
    // What the worker polls: only pending rows are in it, so it stays small.
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.state} = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    check('webhook_deliveries_state_check', sql`${t.state} in ('pending', 'delivered', 'failed')`),
  ],
);

/** One try of a delivery: the endpoint's log (its last 100 are kept). */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    endpointId: integer('endpoint_id').notNull(),
    attemptedAt: stamp('attempted_at').notNull().defaultNow(),
    /** The HTTP status the endpoint answered; null when it did not answer (refused, timed out). */
    statusCode: smallint('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
  },
  (t) => [index('webhook_attempts_endpoint_idx').on(t.endpointId, t.id)],
);
