import { and, asc, eq, sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../../db/client';
import { webhookEndpoints } from '../../db/schema/index';
import { isoInstant } from '../../db/sql';
import type { WebhookAttempt, WebhookEndpoint, WebhookEventType } from '../../../shared/webhooks.schemas';

/** The only SQL of webhooks (decision 050). Every statement of a route is scoped by the caller's company. */

/** How many tries each endpoint's log keeps (docs/product/integrations.md §4). */
export const LOG_SIZE = 100;

type EndpointRow = typeof webhookEndpoints.$inferSelect;

export const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  events: r.events as WebhookEventType[],
  enabled: r.enabled,
  created_at: isoInstant(r.createdAt)!,
  updated_at: isoInstant(r.updatedAt)!,
});

export const listEndpoints = (db: DbOrTx, companyId: number) =>
  db.select().from(webhookEndpoints).where(eq(webhookEndpoints.companyId, companyId)).orderBy(asc(webhookEndpoints.id));

export async function findEndpoint(db: DbOrTx, companyId: number, id: number): Promise<EndpointRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.id, id)));
  return row;
}

export async function insertEndpoint(db: DbOrTx, values: typeof webhookEndpoints.$inferInsert): Promise<EndpointRow> {
  return (await db.insert(webhookEndpoints).values(values).returning())[0];
}

export async function updateEndpoint(
  db: DbOrTx,
  companyId: number,
  id: number,
  set: Partial<Pick<EndpointRow, 'url' | 'events' | 'enabled'>>,
): Promise<EndpointRow | undefined> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...set, updatedAt: sql`now()` })
    .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.id, id)))
    .returning();
  return row;
}

export async function deleteEndpoint(db: DbOrTx, companyId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  return rows.length === 1;
}

/**
 * The outbox write: one delivery per enabled endpoint of the company that takes `type`, in ONE
 * statement (nothing when there is none), in the caller's transaction.
 */
export async function insertDeliveries(db: DbOrTx, companyId: number, eventId: string, type: WebhookEventType, body: string): Promise<void> {
  await db.execute(sql`
    insert into webhook_deliveries (company_id, endpoint_id, event_id, type, body)
    select company_id, id, ${eventId}, ${type}, ${body}
    from webhook_endpoints
    where company_id = ${companyId} and enabled and ${type} = any(events)`);
}

/** A delivery claimed by this process for one try. */
export interface ClaimedDelivery {
  id: number;
  endpoint_id: number;
  event_id: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
}

/**
 * Claims up to `limit` due deliveries of enabled endpoints for `leaseMs`: their `lease_until` is
 * set and `attempts` counted before anything is sent. FOR UPDATE SKIP LOCKED lets several
 * processes claim at once without waiting on each other; a row another process is claiming is
 * skipped, and one it has claimed is not due until its lease ends (PostgreSQL re-checks the WHERE
 * on a row whose claim committed meanwhile). A process that dies mid-try leaves the lease to run
 * out: the row is tried again, with the same `webhook-id`. The same statement runs on PGlite (one
 * connection: nothing to skip).
 */
export async function claimDue(db: DbOrTx, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  return rowsOf<ClaimedDelivery>(
    await db.execute(sql`
      with due as (
        select d.id from webhook_deliveries d
        join webhook_endpoints e on e.id = d.endpoint_id and e.company_id = d.company_id
        where d.state = 'pending' and d.next_attempt_at <= now() and (d.lease_until is null or d.lease_until < now()) and e.enabled
        order by d.next_attempt_at
        limit ${limit}
        for update of d skip locked
      )
      update webhook_deliveries d
      set lease_until = now() + make_interval(secs => ${leaseMs / 1000}), attempts = d.attempts + 1
      from due, webhook_endpoints e
      where d.id = due.id and e.id = d.endpoint_id
      returning d.id, d.endpoint_id, d.event_id, d.body, d.attempts, e.url, e.secret`),
  );
}

export interface TryOutcome {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/**
 * Records one try and what happens next, and trims the endpoint's log to its last LOG_SIZE tries.
 * `next`: 'delivered', 'failed', or the delay until the next try.
 */
export async function recordTry(db: DbOrTx, d: ClaimedDelivery, outcome: TryOutcome, next: 'delivered' | 'failed' | { retryInMs: number }): Promise<void> {
  await db.execute(sql`
    insert into webhook_attempts (delivery_id, endpoint_id, status_code, duration_ms, error)
    values (${d.id}, ${d.endpoint_id}, ${outcome.statusCode}, ${outcome.durationMs}, ${outcome.error})`);
  // Only while the row is still this claim's (same try count): a Resend meanwhile started a new round.
  if (typeof next === 'string') {
    await db.execute(sql`update webhook_deliveries set state = ${next}, lease_until = null where id = ${d.id} and attempts = ${d.attempts}`);
  } else {
    await db.execute(sql`
      update webhook_deliveries set lease_until = null, next_attempt_at = now() + make_interval(secs => ${next.retryInMs / 1000})
      where id = ${d.id} and attempts = ${d.attempts}`);
  }
  await db.execute(sql`
    delete from webhook_attempts where endpoint_id = ${d.endpoint_id} and id <= (
      select id from webhook_attempts where endpoint_id = ${d.endpoint_id} order by id desc offset ${LOG_SIZE} limit 1)`);
}

/**
 * Deliveries done (delivered or failed) whose tries have all left the log: nothing shows them and
 * Resend cannot reach them, so they go.
 */
export async function pruneDeliveries(db: DbOrTx): Promise<void> {
  await db.execute(sql`
    delete from webhook_deliveries d where d.state <> 'pending'
      and not exists (select 1 from webhook_attempts a where a.delivery_id = d.id)`);
}

/** The endpoint's log, newest first. */
export async function endpointLog(db: DbOrTx, companyId: number, endpointId: number): Promise<WebhookAttempt[]> {
  const rows = rowsOf<{
    id: number;
    delivery_id: number;
    event_id: string;
    type: WebhookEventType;
    attempted_at: Date | string;
    status_code: number | null;
    duration_ms: number;
    error: string | null;
    delivery_state: WebhookAttempt['delivery_state'];
    next_attempt_at: Date | string;
  }>(
    await db.execute(sql`
      select a.id, d.id as delivery_id, d.event_id, d.type, a.attempted_at, a.status_code, a.duration_ms, a.error,
        d.state as delivery_state, d.next_attempt_at
      from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
      where a.endpoint_id = ${endpointId} and d.company_id = ${companyId}
      order by a.id desc limit ${LOG_SIZE}`),
  );
  return rows.map((r) => ({
    ...r,
    attempted_at: isoInstant(r.attempted_at)!,
    next_attempt_at: r.delivery_state === 'pending' ? isoInstant(r.next_attempt_at) : null,
  }));
}

/**
 * Resend: the delivery is due now for a new round of tries, with the same `webhook-id`. False when
 * it is not the endpoint's. A try in flight keeps its lease: the new round starts after it.
 */
export async function resendDelivery(db: DbOrTx, companyId: number, endpointId: number, deliveryId: number): Promise<boolean> {
  const rows = rowsOf(
    await db.execute(sql`
      update webhook_deliveries set state = 'pending', attempts = 0, next_attempt_at = now()
      where id = ${deliveryId} and endpoint_id = ${endpointId} and company_id = ${companyId}
      returning id`),
  );
  return rows.length === 1;
}
