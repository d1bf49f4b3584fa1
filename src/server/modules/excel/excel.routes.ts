import { getColumnsQuery, getColumnsReply } from '../../../shared/excel';
import type { App, AppContext } from '../../context';
import * as service from './excel.service';

/** Excel column mapping (SPEC §7 Jobs, DESIGN §5 workbook columns). */
export async function excelRoutes(app: App, ctx: AppContext) {
  app.get(
    '/jobs/excel/getColumns',
    {
      config: { allow: 'jobs.write' },
      schema: {
        tags: ['jobs'],
        summary: 'Header columns of the tickets sheet and the unit-library sheet of an uploaded workbook',
        querystring: getColumnsQuery,
        response: { 200: getColumnsReply },
      },
    },
    (request) => service.getColumns(ctx, request.user, request.query.url, request.query),
  );
}
