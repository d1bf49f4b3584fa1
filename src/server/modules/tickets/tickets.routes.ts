import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  imageDeleteReply,
  mergeBody,
  needsMergeQuery,
  needsMergeReply,
  taskPatchBody,
  ticketDeleteReply,
  ticketReply,
  ticketSchema,
  ticketSaveBody,
  ticketSaveReply,
} from '../../../shared/tickets.schemas';
import { historyQuery, historyReply } from '../../../shared/history.schemas';
import { unlockBody } from '../../../shared/invoices.schemas';
import type { App, AppContext } from '../../context';
import { idParams, rowId } from '../../plugins/routes';
import * as images from './images.service';
import * as service from './tickets.service';

const jobParams = z.object({ jobId: rowId });
const taskParams = z.object({ id: rowId, ticket_task_id: rowId });
const tags = ['tickets'];

/**
 * Tickets (docs/product/api.md §4 Tickets; docs/product/roles-and-statuses.md §2 role matrix:
 * create / delete / merge need tickets.write, field edits tickets.edit, notes and images
 * tickets.annotate — the save service checks what a PUT actually changes).
 */
export async function ticketRoutes(app: App, ctx: AppContext) {
  const logFor = (request: FastifyRequest) => (err: unknown) => request.log.error({ err }, 'removing stored files failed');

  app.get(
    '/tickets/needsMerge/:jobId',
    { config: { allow: 'read' }, schema: { tags, summary: "The job's tickets on a pole", params: jobParams, querystring: needsMergeQuery, response: { 200: needsMergeReply } } },
    (request) => service.needsMerge(ctx, request.user, request.params.jobId, request.query.pole_id, request.query.ticket_id),
  );

  app.get(
    '/tickets/:id/history',
    {
      config: { allow: 'read' },
      schema: { tags, summary: "The ticket's history, newest first (paged: limit, cursor)", params: idParams, querystring: historyQuery, response: { 200: historyReply } },
    },
    (request) => service.ticketHistory(ctx, request.user, request.params.id, request.query),
  );

  app.get(
    '/tickets/:id',
    { config: { allow: 'read' }, schema: { tags, summary: 'One ticket', params: idParams, response: { 200: ticketSchema } } },
    (request) => service.getTicket(ctx, request.user, request.params.id),
  );

  app.put(
    '/tickets/',
    {
      config: { allow: 'tickets.annotate' },
      schema: {
        tags,
        summary: 'Create (no id: job_id + pole) or update (with version) a ticket',
        body: ticketSaveBody,
        response: { 200: ticketSaveReply },
      },
    },
    (request) => service.saveTicket(ctx, request.user, request.body.ticket, logFor(request)),
  );

  app.patch(
    '/tickets/:id/tasks/:ticket_task_id',
    {
      // A task's quantities and date are what a ticket save checks as tickets.edit (Lineman and
      // Apprentice may not): refused here before the body is read.
      config: { allow: 'tickets.edit' },
      schema: {
        tags,
        summary: "Change one task of a ticket (its quantities or completion date), with the ticket's version",
        description:
          'Changes this task only; the ticket\'s other tasks, notes and fields stay as stored. The same rules as a ticket save: roles (Lineman and Apprentice may not change quantities: 403), a billed ticket answers 409, a stale `version` answers 409 with `code: stale_version`. Replies with the whole ticket and its new version.',
        params: taskParams,
        body: taskPatchBody,
        response: { 200: ticketReply },
      },
    },
    (request) => service.patchTask(ctx, request.user, request.params.id, request.params.ticket_task_id, request.body),
  );

  app.put(
    '/tickets/merge/:id',
    { config: { allow: 'tickets.write' }, schema: { tags, summary: 'Merge secondary_ticket into ticket {id}', params: idParams, body: mergeBody, response: { 200: ticketReply } } },
    (request) => service.mergeTickets(ctx, request.user, request.params.id, request.body.secondary_ticket, logFor(request)),
  );

  app.delete(
    '/tickets/images/:id',
    {
      config: { allow: 'tickets.annotate' },
      schema: { tags, summary: 'Delete an image and its files', params: idParams, response: { 200: imageDeleteReply } },
    },
    (request) => images.deleteImage(ctx, request.user, request.params.id, logFor(request)),
  );

  app.delete(
    '/tickets/:id',
    { config: { allow: 'tickets.write' }, schema: { tags, summary: 'Delete a ticket and its files', params: idParams, response: { 200: ticketDeleteReply } } },
    (request) => service.deleteTicket(ctx, request.user, request.params.id, logFor(request)),
  );

  app.post(
    '/tickets/:id/unlock',
    {
      // Billing's permission: who may invoice may unlock (docs/product/billing.md §5, decision 025).
      config: { allow: 'billing.write' },
      schema: { tags: ['tickets', 'invoices'], summary: "Unlock a billed ticket's tasks and status, with a reason", params: idParams, body: unlockBody, response: { 200: ticketReply } },
    },
    (request) => service.unlockTicket(ctx, request.user, request.params.id, request.body.reason),
  );
}
