import { z } from 'zod';
import { utilitySchema } from '../../../shared/jobs.schemas';
import { SPEC_SEARCH_LIMIT, permitTypeSchema, specSchema, specsQuery } from '../../../shared/poles.schemas';
import type { App, AppContext } from '../../context';
import * as repo from './reference.repository';

/** GET /specs/partial, /permits/types, /utilities (docs/product/api.md §5): read by anyone signed in. */
export async function referenceRoutes(app: App, { db }: AppContext) {
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

  app.get('/utilities', { config: { allow: 'read' }, schema: { tags: ['reference'], summary: "The company's utilities (each with its unit library)", response: { 200: z.array(utilitySchema) } } }, (request) =>
    repo.listUtilities(db, request.user.companyId),
  );
}
