import { z } from 'zod';
import type { App, AppContext } from '../../context';
import { UNIT_SEARCH_LIMIT, searchUnits } from './units.repository';

const errorReply = z.object({ error: z.string(), status: z.string().optional() });
const unitOption = z.object({
  id: z.number().int(),
  code: z.string(),
  description: z.string(),
  family: z.string(),
  type: z.string(),
  action: z.string(),
  uom: z.string(),
  utility_id: z.number().int(),
});

/**
 * GET /units?search=&utility_id=: the unit library (DESIGN §4) for the ticket window's task
 * picker and the job table's Create Task. Read by anyone signed in; scoped to the caller's company.
 */
export async function unitRoutes(app: App, { db }: AppContext) {
  app.get(
    '/units',
    {
      schema: {
        tags: ['tickets'],
        summary: `Units of the library whose code or description contains \`search\` (at most ${UNIT_SEARCH_LIMIT})`,
        querystring: z.object({
          search: z.string().max(100).optional(),
          utility_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
        }),
        response: { 200: z.array(unitOption), 400: errorReply, 401: errorReply, 403: errorReply },
      },
    },
    (request) => {
      request.require('read');
      return searchUnits(db, request.user.companyId, request.query.search ?? '', request.query.utility_id ?? null);
    },
  );
}
