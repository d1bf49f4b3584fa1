import { z } from 'zod';
import { SPEC_SEARCH_LIMIT, accessTypeSchema, permitTypeSchema, specSchema, specsQuery } from '../../../shared/poles.schemas';
import type { App, AppContext } from '../../context';
import * as repo from './reference.repository';

/** GET /poles/accessTypes, /specs/partial, /permits/types (SPEC §7): read by anyone signed in. */
export async function referenceRoutes(app: App, { db }: AppContext) {
  app.get(
    '/poles/accessTypes',
    { config: { allow: 'read' }, schema: { tags: ['poles'], summary: 'Access types of poles', response: { 200: z.array(accessTypeSchema) } } },
    (request) => repo.listAccessTypes(db, request.user.companyId),
  );

  app.get(
    '/specs/partial',
    {
      config: { allow: 'read' },
      schema: {
        tags: ['poles'],
        summary: `Utility spec numbers starting with \`partial\` (case-insensitive, at most ${SPEC_SEARCH_LIMIT})`,
        querystring: specsQuery,
        response: { 200: z.array(specSchema) },
      },
    },
    (request) => repo.searchSpecs(db, request.user.companyId, request.query.partial ?? '', SPEC_SEARCH_LIMIT),
  );

  app.get(
    '/permits/types',
    { config: { allow: 'read' }, schema: { tags: ['tickets'], summary: 'Permit types', response: { 200: z.array(permitTypeSchema) } } },
    (request) => repo.listPermitTypes(db, request.user.companyId),
  );
}
