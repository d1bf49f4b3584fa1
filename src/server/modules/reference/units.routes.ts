import { z } from 'zod';
import { unitOptionSchema } from '../../../shared/poles.schemas';
import type { App, AppContext } from '../../context';
import { rowId } from '../../plugins/routes';
import { UNIT_SEARCH_LIMIT, searchUnits } from './units.repository';

/**
 * GET /units?search=&utility_id=: the unit library (DESIGN §4) for the ticket window's task
 * picker and the job table's Create Task. Read by anyone signed in; scoped to the caller's company.
 */
export async function unitRoutes(app: App, { db }: AppContext) {
  app.get(
    '/units',
    {
      config: { allow: 'read' },
      schema: {
        tags: ['tickets'],
        summary: `Units of the library whose code or description contains \`search\` (at most ${UNIT_SEARCH_LIMIT})`,
        querystring: z.object({
          search: z.string().max(100).optional(),
          utility_id: rowId.optional(),
        }),
        response: { 200: z.array(unitOptionSchema) },
      },
    },
    (request) => searchUnits(db, request.user.companyId, request.query.search ?? '', request.query.utility_id ?? null),
  );
}
