import { productionReply } from '../../../shared/production.schemas';
import type { App, AppContext } from '../../context';
import { idParams } from '../../plugins/routes';
import { jobProduction } from './production.service';

/** GET /jobs/{id}/production (DESIGN §7.3): roles 1–3 (billing.read); another company's job is 404. */
export async function productionRoutes(app: App, ctx: AppContext) {
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
    (request) => jobProduction(ctx, request.user, request.params.id),
  );
}
