import { dashboardQuery, dashboardReply } from '../../../shared/dashboard.schemas';
import type { FastifyReply } from 'fastify';
import type { App, AppContext } from '../../context';
import { sendCachedReply, type ReplyCache } from '../../plugins/reply-cache';
import * as service from './dashboard.service';

/** The dashboard (docs/product/billing.md §6): roles 1–3 read it (billing.read); 4–6 get 403 from the auth plugin. */
export async function dashboardRoutes(app: App, ctx: AppContext, replies: ReplyCache) {
  app.get(
    '/dashboard',
    {
      config: { allow: 'billing.read' },
      schema: {
        tags: ['billing'],
        summary:
          'Open, overdue and completed tickets, unbilled completed amount, by foreman and one page of jobs (job_sort, job_dir, job_offset, job_limit; by_job_total), and completed amount per week (last 12 weeks)',
        querystring: dashboardQuery,
        response: { 200: dashboardReply },
      },
    },
    // Kept as bytes until a write to what it reads (dashboard.service dashboardReplyOf, decision 062).
    async (request, reply) => sendCachedReply(request, reply as FastifyReply, await service.dashboardReplyOf(ctx, request.user, request.query, replies)),
  );
}
