import { z } from 'zod';

/**
 * The webhooks contract (docs/product/integrations.md §4): `/webhooks` routes, the events a
 * company's endpoints may receive and the body each delivery POSTs.
 */

/** Every event type, in the order the page lists them. */
export const WEBHOOK_EVENTS = ['job.created', 'ticket.completed', 'ticket.reopened', 'invoice.created'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** What each event says on the page. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'job.created': 'A job is created (also by an import)',
  'ticket.completed': 'A ticket is marked Complete',
  'ticket.reopened': 'A Complete ticket is reopened',
  'invoice.created': 'An invoice is created',
};

const webhookEvent = z.enum(WEBHOOK_EVENTS);
const eventList = z
  .array(webhookEvent)
  .min(1, 'Choose at least one event.')
  .max(WEBHOOK_EVENTS.length)
  .transform((events) => WEBHOOK_EVENTS.filter((e) => events.includes(e)));
/** The URL as typed; the server checks scheme and address (webhooks.service checkEndpointUrl). */
const endpointUrl = z.string().trim().min(1, 'Enter the URL of your endpoint.').max(2000);

export const webhookCreateBody = z
  .object({
    url: endpointUrl.describe('https URL that receives the POSTs; it must resolve to a public address'),
    events: eventList,
    enabled: z.boolean().optional().describe('default true'),
  })
  .strict();
export type WebhookCreateInput = z.input<typeof webhookCreateBody>;

export const webhookUpdateBody = z
  .object({ url: endpointUrl.optional(), events: eventList.optional(), enabled: z.boolean().optional() })
  .strict();
export type WebhookUpdateInput = z.input<typeof webhookUpdateBody>;

export const webhookEndpoint = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(webhookEvent),
  enabled: z.boolean(),
  created_at: z.string().describe('ISO 8601 instant'),
  updated_at: z.string().describe('ISO 8601 instant'),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpoint>;

export const webhookCreateReply = z.object({
  webhook: webhookEndpoint,
  secret: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=]+$/)
    .describe('The signing secret (Standard Webhooks): shown in this reply only, never again. Keep it where your receiver can read it.'),
});
export type WebhookCreateReply = z.infer<typeof webhookCreateReply>;
export const webhookReply = z.object({ webhook: webhookEndpoint });
export const webhookListReply = z.object({ webhooks: z.array(webhookEndpoint) });
export type WebhookListReply = z.infer<typeof webhookListReply>;

/** One try of a delivery, as the endpoint's log shows it (its last 100). */
export const webhookAttempt = z.object({
  id: z.number().int(),
  delivery_id: z.number().int(),
  event_id: z.string().describe('the webhook-id header: the same on every try of the event'),
  type: webhookEvent,
  attempted_at: z.string().describe('ISO 8601 instant'),
  status_code: z.number().int().nullable().describe('HTTP status the endpoint answered; null when it did not answer'),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
  delivery_state: z.enum(['pending', 'delivered', 'failed']),
  next_attempt_at: z.string().nullable().describe('when the delivery is tried again (pending only)'),
});
export type WebhookAttempt = z.infer<typeof webhookAttempt>;
export const webhookLogReply = z.object({ attempts: z.array(webhookAttempt) });
export type WebhookLogReply = z.infer<typeof webhookLogReply>;

export const webhookResendReply = z.object({ delivery_id: z.number().int(), state: z.literal('pending') });

// ---- what a delivery POSTs --------------------------------------------------------------------

const id = z.number().int();
const userId = id.describe('who made the change (an API token acts as its creator)');

/** What each event's `data` holds (docs/api.md §6 lists them for integrators). */
export const WEBHOOK_EVENT_DATA = {
  'job.created': z.object({ job_id: id, job_number: z.string(), user_id: userId }),
  'ticket.completed': z.object({ ticket_id: id, job_id: id, pole_id: id.nullable(), completed_at: z.string().describe('ISO 8601 instant'), user_id: userId }),
  'ticket.reopened': z.object({ ticket_id: id, job_id: id, pole_id: id.nullable(), user_id: userId }),
  'invoice.created': z.object({ invoice_id: id, job_id: id, number: z.string(), total: z.string().describe('money, e.g. "1250.00"'), currency: z.string(), user_id: userId }),
} satisfies Record<WebhookEventType, z.ZodType>;
export type WebhookEventData = { [T in WebhookEventType]: z.infer<(typeof WEBHOOK_EVENT_DATA)[T]> };

const eventOf = <T extends WebhookEventType>(type: T) =>
  z.object({
    id: z.string().describe('msg_…: also the webhook-id header, the same on every try: handle an event once by it'),
    type: z.literal(type),
    created_at: z.string().describe('ISO 8601 instant of the change'),
    data: WEBHOOK_EVENT_DATA[type],
  });

/**
 * The JSON body of a delivery, by `type`. In the OpenAPI document as `components.schemas.WebhookEvent`
 * and the callback of `POST /webhooks`, so a receiver's types are generated like the rest.
 */
export const webhookEventBody = z
  .discriminatedUnion('type', [eventOf('job.created'), eventOf('ticket.completed'), eventOf('ticket.reopened'), eventOf('invoice.created')])
  .meta({ description: 'What Linecrew POSTs to a webhook endpoint, signed as Standard Webhooks sign (webhook-id, webhook-timestamp, webhook-signature).' });
export type WebhookEvent = z.infer<typeof webhookEventBody>;
