import { workQuery, workReply } from '../../../shared/work.schemas';
import type { FastifyReply } from 'fastify';
import type { App, AppContext } from '../../context';
import { sendCachedReply, type ReplyCache } from '../../plugins/reply-cache';
import * as service from './work.service';

/** My Work (docs/product/field-mode.md §1): every role reads the open tickets that concern it. */
export async function workRoutes(app: App, ctx: AppContext, replies: ReplyCache) {
  app.get(
    '/work',
    {
      config: { allow: 'read' },
      schema: {
        tags: ['work'],
        summary: 'The open tickets that concern me, grouped by job, soonest due first (optional foreman_id filter)',
        querystring: workQuery,
        response: { 200: workReply },
      },
    },
    // Built to workReply's shape (work.api.test.ts holds the bytes to its serializer's) and kept as
    // bytes per scope until its fingerprint changes (work.service myWorkReply): hundreds of rows
    // are neither read nor serialised again while nothing in scope changed.
    async (request, reply) => sendCachedReply(request, reply as FastifyReply, await service.myWorkReply(ctx, request.user, request.query, replies)),
  );
}
