import { getColumnsQuery, getColumnsReply } from '../../../shared/excel';
import { reimportStaleReply, xlsUploadModesReply } from '../../../shared/reimport';
import { xlsRejectedReply } from '../../../shared/tickets.schemas';
import type { App, AppContext } from '../../context';
import { registerMultipart } from '../../plugins/multipart';
import { errorReply } from '../../plugins/routes';
import * as xls from './spreadsheet-upload.service';
import * as service from './uploaded-workbook';

/**
 * The import's routes (decision 034). The job save (PUT /jobs/) is the jobs module's route and
 * calls importJobWorkbook (job-import.service.ts).
 */

/** Excel column mapping (docs/product/api.md §3 Jobs, docs/product/api.md §7 workbook columns). */
export async function importColumnRoutes(app: App, ctx: AppContext) {
  app.get(
    '/jobs/excel/getColumns',
    {
      config: { allow: 'jobs.write' },
      schema: {
        tags: ['jobs'],
        summary: "Header columns of the tickets sheet and the unit-library sheet of an uploaded workbook; with utility_id, that utility's saved mapping as `saved`",
        querystring: getColumnsQuery,
        response: { 200: getColumnsReply },
      },
    },
    (request) => service.getColumns(ctx, request.user, request.query.url, request.query, request.query.utility_id),
  );
}

/** The spreadsheet upload of a job (docs/product/api.md §4 Tickets, decision 018), in its own multipart scope. */
export async function spreadsheetUploadRoutes(app: App, ctx: AppContext) {
  await app.register(async (scope: App) => {
    await registerMultipart(scope);

    scope.post(
      '/tickets/xls-upload',
      {
        config: { allow: 'tickets.write' },
        schema: {
          tags: ['tickets'],
          summary:
            "Add a workbook's tickets to a job (multipart: file, job_id, optional ticketsMappings / libraryMappings as JSON, mode: columns | preview | add_new (default) | update_quantities, preview_token)",
          consumes: ['multipart/form-data'],
          body: xls.xlsUploadBody,
          response: { 200: xlsUploadModesReply, 422: xlsRejectedReply.or(errorReply), 409: reimportStaleReply.or(errorReply) },
        },
      },
      async (request, reply) => {
        const outcome = await xls.uploadSpreadsheet(ctx, request.user, request.body, (err) => request.log.error({ err }, 'a staged import could not be removed'));
        switch (outcome.kind) {
          case 'columns':
            return outcome.columns;
          case 'preview':
            return outcome.preview;
          case 'imported':
            return outcome.result;
          case 'rejected':
            return reply.status(422).send(outcome.result);
          case 'stale':
            return reply.status(409).send({ error: outcome.error, preview: outcome.preview });
        }
      },
    );
  });
}
