import type { FastifyReply } from 'fastify';
import { productionReply } from '../../../shared/production.schemas';
import type { App, AppContext } from '../../context';
import { sendCachedReply, type ReplyCache } from '../../plugins/reply-cache';
import { idParams } from '../../plugins/routes';
import { getProductionReply } from './production.service';

/**
 * GET /jobs/{id}/production (docs/product/billing.md §3): roles 1–3 (billing.read); another company's job is 404.
 * Served as bytes built once per change of what it reads (plugins/reply-cache.ts, production.service).
 */
export async function productionRoutes(app: App, ctx: AppContext, replies: ReplyCache) {
  app.get(
    '/jobs/:id/production',
    {
      config: { allow: 'billing.read' },
      schema: {
        tags: ['billing'],
        summary: "The job's production: per unit bid, actual, completed and remaining quantities and amounts, totals, and totals per foreman",
        params: idParams,
        response: { 200: productionReply },
      },
    },
    async (request, reply) => sendCachedReply(request, reply as FastifyReply, await getProductionReply(ctx, request.user, request.params.id, replies)),
  );
}
