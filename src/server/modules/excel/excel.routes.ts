import { z } from 'zod';
import { getColumnsQuery, getColumnsReply } from '../../../shared/excel';
import type { App, AppContext } from '../../context';
import * as service from './excel.service';

const errorReply = z.object({ error: z.string(), status: z.string().optional() });

/** Excel column mapping (SPEC §7 Jobs, DESIGN §5 workbook columns). */
export async function excelRoutes(app: App, ctx: AppContext) {
  app.get(
    '/jobs/excel/getColumns',
    {
      schema: {
        tags: ['jobs'],
        summary: 'Header columns of the tickets sheet and the unit-library sheet of an uploaded workbook',
        querystring: getColumnsQuery,
        response: { 200: getColumnsReply, 404: errorReply, 422: errorReply },
      },
    },
    (request) => {
      request.require('jobs.write');
      return service.getColumns(ctx, request.user, request.query.url);
    },
  );
}
