import { workQuery, workReply } from '../../../shared/work.schemas';
import type { FastifyReply } from 'fastify';
import type { App, AppContext } from '../../context';
import { sendJson } from '../../plugins/routes';
import * as service from './work.service';

/** My Work (docs/product/field-mode.md §1): every role reads the open tickets that concern it. */
export async function workRoutes(app: App, ctx: AppContext) {
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
    // Built to workReply's shape (work.api.test.ts holds the bytes to its serializer's), sent as
    // text: hundreds of rows are not parsed again on the way out.
    async (request, reply) => sendJson(reply as FastifyReply, await service.myWork(ctx, request.user, request.query)),
  );
}
