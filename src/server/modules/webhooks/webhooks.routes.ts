import { z } from 'zod';
import {
  webhookCreateBody,
  webhookCreateReply,
  webhookEventBody,
  webhookListReply,
  webhookLogReply,
  webhookReply,
  webhookResendReply,
  webhookUpdateBody,
} from '../../../shared/webhooks.schemas';
import type { App, AppContext } from '../../context';
import { idParams, rowId } from '../../plugins/routes';
import * as service from './webhooks.service';

const tags = ['webhooks'];

/**
 * What the endpoint then receives, as an OpenAPI 3.0 callback of the registration: a receiver's
 * types come from the document like every other (`components.schemas.WebhookEvent`).
 */
const DELIVERY_DOC = {
  schemas: { WebhookEvent: webhookEventBody },
  operation: {
    callbacks: {
      event: {
        '{$request.body#/url}': {
          post: {
            summary: 'An event, POSTed to your endpoint',
            description:
              'Verify `webhook-signature` on the raw body before parsing it; answer any 2xx within 10 s. Other answers are tried again for 24 h with the same `webhook-id` (docs/api.md §6).',
            operationId: 'receiveWebhookEvent',
            parameters: ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => ({
              name,
              in: 'header',
              required: true,
              schema: { type: 'string' },
              description: { 'webhook-id': 'The event `id`', 'webhook-timestamp': 'Unix seconds of this try', 'webhook-signature': '`v1,` + base64 HMAC-SHA256, space-separated if several' }[name],
            })),
            requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookEvent' } } } },
            responses: {
              '200': { description: 'Any 2xx: received' },
              '401': { description: 'Any other answer (e.g. 401 for a signature that does not verify) is a failed try: it is tried again later' },
            },
            security: [],
          },
        },
      },
    },
  },
};
const successReply = z.object({ success: z.literal(true) });
/** A delivery's id is a bigserial: larger than a row id may be. */
const deliveryParams = z.object({ id: rowId, deliveryId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/**
 * Webhook endpoints (docs/product/integrations.md §4): Admins only ('webhooks.manage'); another
 * company's endpoint answers 404. A URL that is not https, or resolves to a loopback, private or
 * link-local address, answers 400 saying why.
 */
export async function webhookRoutes(app: App, ctx: AppContext) {
  const config = { allow: 'webhooks.manage' as const };

  app.get('/webhooks', { config, schema: { tags, summary: "The company's webhook endpoints (never their secrets)", response: { 200: webhookListReply } } }, (request) =>
    service.listWebhooks(ctx, request.user),
  );

  app.post(
    '/webhooks',
    {
      config: { ...config, secretReply: true, openapi: DELIVERY_DOC },
      schema: {
        tags,
        summary: 'Register an endpoint: 201 with its signing secret, shown this once',
        description:
          'Each event is POSTed as JSON `{id, type, created_at, data}` with the Standard Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`, keyed with the base64 part of the secret after `whsec_`). Retried with backoff for 24 h until a 2xx, with the same `webhook-id`.',
        body: webhookCreateBody,
        response: { 201: webhookCreateReply },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createWebhook(ctx, request.user, request.body)),
  );

  app.patch(
    '/webhooks/:id',
    {
      config,
      schema: { tags, summary: "Change an endpoint's URL, events, or enable / disable it", params: idParams, body: webhookUpdateBody, response: { 200: webhookReply } },
    },
    (request) => service.updateWebhook(ctx, request.user, request.params.id, request.body),
  );

  app.delete(
    '/webhooks/:id',
    { config, schema: { tags, summary: 'Delete an endpoint, its pending deliveries and its log', params: idParams, response: { 200: successReply } } },
    (request) => service.deleteWebhook(ctx, request.user, request.params.id),
  );

  app.get(
    '/webhooks/:id/deliveries',
    { config, schema: { tags, summary: "The endpoint's log: its last 100 tries, newest first", params: idParams, response: { 200: webhookLogReply } } },
    (request) => service.webhookLog(ctx, request.user, request.params.id),
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/resend',
    {
      config,
      schema: {
        tags,
        summary: 'Send a delivery again now (a new round of tries, same webhook-id)',
        params: deliveryParams,
        response: { 200: webhookResendReply },
      },
    },
    (request) => service.resendWebhook(ctx, request.user, request.params.id, request.params.deliveryId),
  );
}
