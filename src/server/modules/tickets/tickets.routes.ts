import type { FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import type { Action } from '../../../shared/permissions';
import {
  imageCompleteBody,
  imageCompleteReply,
  mergeBody,
  needsMergeQuery,
  needsMergeReply,
  ticketReply,
  ticketSchema,
  ticketSaveBody,
  ticketSaveReply,
  xlsRejectedReply,
} from '../../../shared/tickets.schemas';
import { reimportStaleReply, xlsUploadModesReply } from '../../../shared/reimport';
import { UPLOAD_RULES } from '../../../shared/uploads';
import type { App, AppContext } from '../../context';
import * as images from './images.service';
import * as service from './tickets.service';
import * as xls from './spreadsheet-upload.service';

const errorReply = z.object({ error: z.string(), status: z.string().optional(), fields: z.record(z.string(), z.string()).optional() });
const errors = { 400: errorReply, 401: errorReply, 403: errorReply, 404: errorReply, 409: errorReply };
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const jobParams = z.object({ jobId: z.coerce.number().int().positive().max(2_147_483_647) });
const tags = ['tickets'];
/** Checked before the body is validated, so a role that may not act gets 403 whatever it sent. */
const allow = (action: Action) => ({ preValidation: async (request: FastifyRequest) => request.require(action) });

/**
 * Tickets (SPEC §7 Tickets, the image-complete call of §7 Uploads; DESIGN §4 role matrix:
 * create / delete / merge need tickets.write, field edits tickets.edit, notes and images
 * tickets.annotate — the save service checks what a PUT actually changes).
 */
export async function ticketRoutes(app: App, ctx: AppContext) {
  const logFor = (request: FastifyRequest) => (err: unknown) => request.log.error({ err }, 'removing stored files failed');

  app.get(
    '/tickets/needsMerge/:jobId',
    { ...allow('read'), schema: { tags, summary: "The job's tickets on a pole", params: jobParams, querystring: needsMergeQuery, response: { 200: needsMergeReply, ...errors } } },
    (request) => service.needsMerge(ctx, request.user, request.params.jobId, request.query.pole_id, request.query.ticket_id),
  );

  app.get(
    '/tickets/:id',
    { ...allow('read'), schema: { tags, summary: 'One ticket', params: idParams, response: { 200: ticketSchema, ...errors } } },
    (request) => service.getTicket(ctx, request.user, request.params.id),
  );

  app.put(
    '/tickets/',
    {
      ...allow('tickets.annotate'),
      schema: {
        tags,
        summary: 'Create (no id: job_id + pole) or update (with version) a ticket',
        body: ticketSaveBody,
        response: { 200: ticketSaveReply, ...errors },
      },
    },
    (request) => service.saveTicket(ctx, request.user, request.body.ticket, logFor(request)),
  );

  app.put(
    '/tickets/merge/:id',
    { ...allow('tickets.write'), schema: { tags, summary: 'Merge secondary_ticket into ticket {id}', params: idParams, body: mergeBody, response: { 200: ticketReply, ...errors } } },
    (request) => service.mergeTickets(ctx, request.user, request.params.id, request.body.secondary_ticket, logFor(request)),
  );

  app.delete(
    '/tickets/images/:id',
    {
      ...allow('tickets.annotate'),
      schema: { tags, summary: 'Delete an image and its files', params: idParams, response: { 200: z.object({ success: z.literal(true), id: z.number().int() }), ...errors } },
    },
    (request) => images.deleteImage(ctx, request.user, request.params.id, logFor(request)),
  );

  app.delete(
    '/tickets/:id',
    { ...allow('tickets.write'), schema: { tags, summary: 'Delete a ticket and its files', params: idParams, response: { 200: z.object({ success: z.literal(true) }), ...errors } } },
    (request) => service.deleteTicket(ctx, request.user, request.params.id, logFor(request)),
  );

  // Multipart bodies only in this scope: the image-complete form and the spreadsheet upload.
  await app.register(async (scope: App) => {
    await scope.register(multipart, {
      attachFieldsToBody: 'keyValues',
      limits: { fileSize: UPLOAD_RULES.excel.maxBytes, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 21 },
    });

    scope.post(
      '/media_upload/s3-upload-complete',
      {
        ...allow('tickets.annotate'),
        schema: {
          tags: ['uploads'],
          summary: 'Record an uploaded photo on a ticket (form body: ticketId, url, thumbUrl, isVideo)',
          body: imageCompleteBody,
          response: { 200: imageCompleteReply, ...errors },
        },
      },
      (request) => images.completeImageUpload(ctx, request.user, request.body, logFor(request)),
    );

    scope.post(
      '/tickets/xls-upload',
      {
        ...allow('tickets.write'),
        schema: {
          tags,
          summary:
            "Add a workbook's tickets to a job (multipart: file, job_id, optional ticketsMappings / libraryMappings as JSON, mode: columns | preview | add_new (default) | update_quantities, preview_token)",
          consumes: ['multipart/form-data'],
          body: xls.xlsUploadBody,
          response: { 200: xlsUploadModesReply, 413: errorReply, 422: xlsRejectedReply.or(errorReply), ...errors, 409: reimportStaleReply.or(errorReply) },
        },
      },
      async (request, reply) => {
        const outcome = await xls.uploadSpreadsheet(ctx, request.user, request.body);
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
