import { workQuery, workReply } from '../../../shared/work.schemas';
import type { App, AppContext } from '../../context';
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
    (request) => service.myWork(ctx, request.user, request.query),
  );
}
