import { z } from 'zod';
import type { ExportOption } from '../../../shared/export';
import type { App, AppContext } from '../../context';
import { attachment, idParams } from '../../plugins/routes';
import * as service from './exports.service';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** `option` as the query string spells it: '1', '2' or 'units'. */
export const exportXlsxQuery = z.object({
  option: z.enum(['1', '2', 'units']).describe("1: tickets with work, 2: all tickets, 'units': one row per unit"),
});
const toOption = (value: z.infer<typeof exportXlsxQuery>['option']): ExportOption => (value === 'units' ? value : (Number(value) as 1 | 2));

/**
 * The job exports as .xlsx (docs/product/imports.md §9; the CSV of each option is built in the browser from the
 * same rows). Roles 1–3, as the Export modal (docs/product/roles-and-statuses.md §1 "export"); another company's job is 404.
 */
export async function exportRoutes(app: App, ctx: AppContext) {
  app.get(
    '/jobs/:id/export.xlsx',
    {
      config: { allow: 'jobs.write', openapi: { fileReply: { types: [XLSX_TYPE], description: 'The export as an Excel workbook (.xlsx)' } } },
      schema: {
        tags: ['jobs'],
        summary: 'An export option of the job as an Excel workbook: the CSV\'s columns, text as text, numbers and dates as numbers and dates',
        params: idParams,
        querystring: exportXlsxQuery,
        response: { 200: z.any() },
      },
    },
    async (request, reply) => {
      const { fileName, body } = await service.jobExportXlsx(ctx, request.user, request.params.id, toOption(request.query.option));
      return reply.type(XLSX_TYPE).header('content-disposition', attachment(fileName)).header('cache-control', 'private, no-store').send(body);
    },
  );
}
