import { z } from 'zod';
import { can } from '../../../shared/permissions';
import { unitLibraryItemSchema, unitUpdateBody, unitUpdateReply } from '../../../shared/production.schemas';
import type { App, AppContext } from '../../context';
import { idParams, rowId } from '../../plugins/routes';
import { UNIT_LIBRARY_LIMIT, UNIT_SEARCH_LIMIT, searchUnits } from './units.repository';
import { setUnitPrice } from './units.service';

/**
 * GET /units?search=&utility_id=&limit=: the unit library (docs/product/entities.md §11) for the ticket window's task
 * picker, the job table's Create Task and the Unit Library page. Read by anyone signed in;
 * scoped to the caller's company. `unit_price` only for roles 1–3 (docs/product/billing.md §2).
 * PUT /units/{id} with `{unit: {unit_price}}` sets or clears a price (roles 1–2).
 */
export async function unitRoutes(app: App, { db }: AppContext) {
  app.get(
    '/units',
    {
      config: { allow: 'read' },
      schema: {
        tags: ['tickets'],
        summary: `Units of the library whose code or description contains \`search\` (at most \`limit\`, default ${UNIT_SEARCH_LIMIT}); with \`unit_price\` for roles 1–3`,
        querystring: z.object({
          search: z.string().max(100).optional(),
          utility_id: rowId.optional(),
          // The Unit Library page lists a whole utility's library at once.
          limit: z.coerce.number().int().min(1).max(UNIT_LIBRARY_LIMIT).optional(),
        }),
        response: { 200: z.array(unitLibraryItemSchema) },
      },
    },
    (request) =>
      searchUnits(
        db,
        request.user.companyId,
        request.query.search ?? '',
        request.query.utility_id ?? null,
        request.query.limit ?? UNIT_SEARCH_LIMIT,
        can(request.user.roleId, 'billing.read'),
      ),
  );

  app.put(
    '/units/:id',
    {
      config: { allow: 'billing.write' },
      schema: {
        tags: ['billing'],
        summary: 'Set or clear (null) the price of one unit of the library',
        params: idParams,
        body: unitUpdateBody,
        response: { 200: unitUpdateReply },
      },
    },
    async (request) => ({ unit: await setUnitPrice(db, request.user, request.params.id, request.body.unit.unit_price) }),
  );
}
