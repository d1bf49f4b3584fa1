import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { jobDeleteReply, jobExistsReply, jobListItemSchema, jobListRowSchema, jobPageQuery, jobPageReply, jobSaveBody, jobSaveReply, jobSchema } from '../../../shared/jobs.schemas';
import { MSG } from '../../../shared/messages';
import { badRequest } from '../../errors';
import { jobPage } from './jobs-page.service';
import { historyQuery, historyReply } from '../../../shared/history.schemas';
import { ticketSchema } from '../../../shared/tickets.schemas';
import type { App, AppContext } from '../../context';
import { MAP_EXPORT_TYPE, mapExportFileName, ticketsToGeoJson, ticketsToKml } from '../../../shared/map-export';
import { mapFeatureCollection } from '../../../shared/map.schemas';
import { attachment, idParams } from '../../plugins/routes';
import { sendCachedReply, type ReplyCache } from '../../plugins/reply-cache';
import type { TicketSlices } from './job-page-reply';
import * as service from './jobs.service';

const tags = ['jobs'];

/** A job save may carry thousands of ticket drafts (job.newTickets). */
const SAVE_BODY_LIMIT = 32 * 1024 * 1024;

/** Jobs (docs/product/api.md §3 Jobs; docs/product/roles-and-statuses.md §2 roles: everyone reads, roles 1–3 write). */
export async function jobsRoutes(app: App, ctx: AppContext, replies: ReplyCache<TicketSlices>) {
  // The list and the job page are served as bytes built once per change of what they show
  // (plugins/reply-cache.ts); their schemas document them and the API tests check every reply against
  // them. The list is one reply per company: every role of it sees the same list.
  // With `limit` it answers one page instead (docs/product/scale.md §2): searched, filtered and
  // sorted by the database, built per request (the page depends on the query, not only the data).
  app.get(
    '/jobs',
    {
      config: { allow: 'read' },
      schema: {
        tags,
        summary: "The company's jobs with their counts and % complete: all of them, or one page with ?limit= (search q, status, sort, dir, cursor)",
        querystring: jobPageQuery,
        response: { 200: z.union([z.array(jobListRowSchema), jobPageReply]) },
      },
    },
    async (request, reply) => {
      const { limit, ...paging } = request.query;
      // A page is built in the reply schema's shape (jobs-page.service inRowOrder) and sent as JSON
      // text: the zod serializer would parse every row again before JSON.stringify, ~1 ms of CPU
      // per page at ten clients beside 2–3 ms of SQL (decision 063). jobs-page.api.test holds the
      // bytes to what that serializer sends.
      if (limit !== undefined) {
        const page = await jobPage(ctx, request.user, { ...request.query, limit });
        return (reply as FastifyReply).type('application/json; charset=utf-8').send(JSON.stringify(page));
      }
      const stray = Object.entries(paging).find(([, v]) => v !== undefined);
      if (stray) throw badRequest(MSG.jobsPageNeedsLimit(stray[0]), { [stray[0]]: MSG.jobsPageNeedsLimit(stray[0]) });
      return sendCachedReply(request, reply as FastifyReply, await service.getJobListReply(ctx, request.user, replies));
    },
  );

  app.get(
    '/jobs/:id',
    { config: { allow: 'read' }, schema: { tags, summary: 'One job with its tickets (the job page)', params: idParams, response: { 200: jobSchema } } },
    async (request, reply) => sendCachedReply(request, reply as FastifyReply, await service.getJobReply(ctx, request.user, request.params.id, replies)),
  );

  // The job without its tickets: what a crew's phone ticket view shows "before you climb"
  // (hospital, packet, overrides; docs/product/field-mode.md §2), a few hundred bytes instead of the job page's rows.
  app.get(
    '/jobs/:id/header',
    { config: { allow: 'read' }, schema: { tags, summary: 'The job without its tickets', params: idParams, response: { 200: jobListItemSchema } } },
    (request) => service.jobHeaderOf(ctx, request.user, request.params.id),
  );

  app.get(
    '/jobs/:id/history',
    {
      config: { allow: 'read' },
      schema: { tags, summary: "The job's history and its tickets', newest first (paged: limit, cursor)", params: idParams, querystring: historyQuery, response: { 200: historyReply } },
    },
    (request) => service.jobHistory(ctx, request.user, request.params.id, request.query),
  );

  app.get(
    '/jobs/tickets/:id',
    { config: { allow: 'read' }, schema: { tags, summary: "The job's tickets, each in full (tasks, notes, permits, images)", params: idParams, response: { 200: z.array(ticketSchema) } } },
    (request) => service.ticketsOfJob(ctx, request.user, request.params.id),
  );

  // The map layers of a job (docs/product/map.md §1): downloads, so sent as built bytes with their own type.
  app.get(
    '/jobs/:id/geojson',
    {
      config: {
        allow: 'read',
        openapi: { fileReply: { types: [MAP_EXPORT_TYPE.geojson], description: 'A GeoJSON FeatureCollection of Point features, one per ticket with coordinates (RFC 7946)' } },
      },
      schema: { tags, summary: 'The job\'s tickets with coordinates as GeoJSON points (application/geo+json, a download)', params: idParams, response: { 200: mapFeatureCollection } },
    },
    async (request, typedReply) => {
      const reply = typedReply as FastifyReply; // sends bytes, not the typed object
      const job = await service.jobMapTickets(ctx, request.user, request.params.id);
      // A Buffer goes out as it is: Fastify would add a charset to a string of a +json type.
      const body = Buffer.from(JSON.stringify(ticketsToGeoJson(job.tickets)));
      return reply.type(MAP_EXPORT_TYPE.geojson).header('content-disposition', attachment(mapExportFileName(job.job_number, 'geojson'))).send(body);
    },
  );
  app.get(
    '/jobs/:id/kml',
    {
      config: { allow: 'read', openapi: { fileReply: { types: [MAP_EXPORT_TYPE.kml], description: 'A KML 2.2 document, one placemark per ticket with coordinates' } } },
      schema: { tags, summary: 'The job\'s tickets with coordinates as KML 2.2 placemarks (Google Earth, a download)', params: idParams },
    },
    async (request, reply) => {
      const job = await service.jobMapTickets(ctx, request.user, request.params.id);
      return reply
        .type(`${MAP_EXPORT_TYPE.kml}; charset=utf-8`)
        .header('content-disposition', attachment(mapExportFileName(job.job_number, 'kml')))
        .send(ticketsToKml(job, job.tickets));
    },
  );

  app.get(
    '/jobs/job_exists/:number',
    {
      config: { allow: 'read' },
      schema: { tags, summary: 'The jobs of the company with this job number (compared as people read it)', params: z.object({ number: z.string().min(1).max(200) }), response: { 200: jobExistsReply } },
    },
    (request) => service.jobsWithNumber(ctx, request.user, request.params.number),
  );

  // `/jobs/` is also `/jobs`: the router ignores a trailing slash (app.ts).
  app.put(
    '/jobs/',
    {
      config: { allow: 'jobs.write' },
      bodyLimit: SAVE_BODY_LIMIT,
      schema: { tags, summary: 'Create (no id) or update (with the version read) a job, its tickets and units', body: jobSaveBody, response: { 200: jobSaveReply } },
    },
    (request) => service.saveJob(ctx, request.user, request.body.job, (err) => request.log.error({ err }, 'replaced work packet could not be deleted')),
  );

  const deleteSchema = { config: { allow: 'jobs.write' as const }, schema: { tags, summary: 'Delete a job with its tickets and files', params: idParams, response: { 200: jobDeleteReply } } };
  const remove = (request: FastifyRequest, id: number) =>
    service.deleteJob(ctx, request.user, id, (err) => request.log.error({ err }, 'job files could not be deleted'));
  // SPEC's path deletes with a GET: marked, so the cookie alone (a cross-site link or <img>) cannot.
  app.get(
    '/jobs/delete/:id',
    {
      ...deleteSchema,
      config: { ...deleteSchema.config, changesState: true },
      schema: { ...deleteSchema.schema, summary: 'Delete a job (the SPEC\'s GET form of DELETE /jobs/{id}; takes an Idempotency-Key like any change)' },
    },
    (request) => remove(request, request.params.id),
  );
  app.delete('/jobs/:id', deleteSchema, (request) => remove(request, request.params.id));
}
