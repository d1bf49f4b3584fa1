import { z } from 'zod';
import { accessTypeSchema, addPoleBody, byPoleOrLineQuery, byUtilityQuery, poleUpdateBody, specificPoleQuery } from '../../../shared/poles.schemas';
import { addPoleReply, poleReply, poleSchema, polesReply } from '../../../shared/tickets.schemas';
import type { App, AppContext } from '../../context';
import * as service from './poles.service';

const tags = ['poles'];

/**
 * Poles (docs/product/api.md §5 Poles): searches for anyone signed in; adding and editing poles needs
 * tickets.write. `tickets`: how a pole added to a job gets its ticket (poles.service TicketsOfPoles).
 */
export async function poleRoutes(app: App, ctx: AppContext, tickets: service.TicketsOfPoles) {
  app.get(
    '/poles/byUtility',
    { config: { allow: 'read' }, schema: { tags, summary: 'Search poles by utility (id or code; empty = all), pole and line prefixes', querystring: byUtilityQuery, response: { 200: polesReply } } },
    (request) => service.byUtility(ctx, request.user, request.query),
  );

  app.get(
    '/poles/polesByPoleOrLine',
    { config: { allow: 'read' }, schema: { tags, summary: "Search poles by pole or line prefix (porlType 'pole' | 'line')", querystring: byPoleOrLineQuery, response: { 200: polesReply } } },
    (request) => service.byPoleOrLine(ctx, request.user, request.query),
  );

  app.get(
    '/poles/specificPole',
    { config: { allow: 'read' }, schema: { tags, summary: 'Poles with exactly this pole name on this line (of the utility)', querystring: specificPoleQuery, response: { 200: z.array(poleSchema) } } },
    (request) => service.specificPole(ctx, request.user, request.query),
  );

  app.put(
    '/poles/',
    { config: { allow: 'tickets.write' }, schema: { tags, summary: 'Save the fields of a pole', body: poleUpdateBody, response: { 200: poleReply } } },
    (request) => service.updatePole(ctx, request.user, request.body.pole),
  );

  app.post(
    '/poles/',
    {
      config: { allow: 'tickets.write' },
      schema: {
        tags,
        summary: 'Add a pole; with job_id, also its ticket in that job',
        body: z.union([z.object({ pole: addPoleBody }).transform((b) => b.pole), addPoleBody]),
        response: { 200: addPoleReply },
      },
    },
    (request) => service.addPole(ctx, request.user, request.body, tickets),
  );

  app.get(
    '/poles/accessTypes',
    { config: { allow: 'read' }, schema: { tags, summary: 'Access types of poles', response: { 200: z.array(accessTypeSchema) } } },
    (request) => service.accessTypes(ctx, request.user),
  );
}
