import { randomUUID } from 'node:crypto';
import type {
  WebhookCreateReply,
  WebhookEndpoint,
  WebhookEvent,
  WebhookEventData,
  WebhookEventType,
  WebhookLogReply,
  webhookCreateBody,
  webhookUpdateBody,
} from '../../../shared/webhooks.schemas';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { notFound } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import { newSecret } from './delivery';
import { parseEndpointUrl, resolveEndpoint } from './endpoint-address';
import * as repo from './webhooks.repository';

/**
 * Webhooks (docs/product/integrations.md §4, decision 050): an Admin's endpoints, the event
 * outbox written in the transaction of each change, and the delivery log with Resend.
 */

export { startWebhookWorker, deliverDue, signature, RETRY_DELAYS_MS, type WebhookWorker } from './delivery';

// ---------------------------------------------------------------------------------------------
// Events

/**
 * THE one place an event is emitted: call it inside the transaction of the change, so the event
 * exists exactly when the change committed (decision 050). It writes one outbox row per enabled
 * endpoint of the company that takes `type` (one statement; nothing when there is none). The
 * worker of some app process sends them. Called from:
 * - tickets.service saveTicket (complete / reopen, also offline replays: they are the same PUT),
 * - jobs.service saveJob's insert of a job without an import, and imports' staged-write publish
 *   (a job created with its workbook becomes visible, and so created, when published),
 * - invoices.service createInvoice.
 */
export async function emitWebhookEvent<T extends WebhookEventType>(tx: DbOrTx, companyId: number, type: T, data: WebhookEventData[T]): Promise<void> {
  const id = `msg_${randomUUID().replace(/-/g, '')}`;
  const body = { id, type, created_at: new Date().toISOString(), data } as Extract<WebhookEvent, { type: T }>;
  await repo.insertDeliveries(tx, companyId, id, type, JSON.stringify(body));
}

// ---------------------------------------------------------------------------------------------
// Endpoints (Admins: config allow 'webhooks.manage')

/** The URL as it will be called: https (http only with WEBHOOKS_ALLOW_PRIVATE), resolving to public addresses only. */
async function checkedUrl(ctx: AppContext, raw: string): Promise<string> {
  const { allowPrivate } = ctx.config.webhooks;
  const url = parseEndpointUrl(raw, allowPrivate);
  await resolveEndpoint(url, allowPrivate);
  return url.toString();
}

export async function listWebhooks({ db }: AppContext, me: CurrentUser): Promise<{ webhooks: WebhookEndpoint[] }> {
  return { webhooks: (await repo.listEndpoints(db, me.companyId)).map(repo.toEndpoint) };
}

export async function createWebhook(ctx: AppContext, me: CurrentUser, input: z.output<typeof webhookCreateBody>): Promise<WebhookCreateReply> {
  const url = await checkedUrl(ctx, input.url);
  const secret = newSecret();
  const row = await repo.insertEndpoint(ctx.db, { companyId: me.companyId, url, secret, events: input.events, enabled: input.enabled ?? true, createdBy: me.id });
  return { webhook: repo.toEndpoint(row), secret };
}

export async function updateWebhook(ctx: AppContext, me: CurrentUser, id: number, input: z.output<typeof webhookUpdateBody>): Promise<{ webhook: WebhookEndpoint }> {
  if (!(await repo.findEndpoint(ctx.db, me.companyId, id))) throw notFound('webhook');
  const url = input.url !== undefined ? await checkedUrl(ctx, input.url) : undefined;
  const row = await repo.updateEndpoint(ctx.db, me.companyId, id, { url, events: input.events, enabled: input.enabled });
  if (!row) throw notFound('webhook');
  return { webhook: repo.toEndpoint(row) };
}

/** The endpoint and (by cascade) its pending deliveries and log. */
export async function deleteWebhook({ db }: AppContext, me: CurrentUser, id: number) {
  if (!(await repo.deleteEndpoint(db, me.companyId, id))) throw notFound('webhook');
  return { success: true as const };
}

export async function webhookLog({ db }: AppContext, me: CurrentUser, id: number): Promise<WebhookLogReply> {
  if (!(await repo.findEndpoint(db, me.companyId, id))) throw notFound('webhook');
  return { attempts: await repo.endpointLog(db, me.companyId, id) };
}

export async function resendWebhook({ db }: AppContext, me: CurrentUser, id: number, deliveryId: number) {
  if (!(await repo.resendDelivery(db, me.companyId, id, deliveryId))) throw notFound('delivery');
  return { delivery_id: deliveryId, state: 'pending' as const };
}
