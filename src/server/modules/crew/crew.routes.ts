import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Action } from '../../../shared/permissions';
import { crewCreate, crewMember, crewSaveReply, crewUpdate, foremanCrewMember, foremanOption } from '../../../shared/crew.schemas';
import type { App, AppContext } from '../../context';
import * as service from './crew.service';

/** Failures carry the message in `status` too: the spec's crew client alerts body.status (SPEC §7). */
const errorReply = z.object({ error: z.string(), status: z.string(), fields: z.record(z.string(), z.string()).optional() });
const errors = { 400: errorReply, 401: errorReply, 403: errorReply, 404: errorReply, 409: errorReply };
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const tags = ['crew'];

/** Checked before the body is validated, so a role that may not act gets 403, whatever it sent. */
const allow = (action: Action) => ({ preValidation: async (request: FastifyRequest) => request.require(action) });

/**
 * The crew roster (SPEC §7 Account and crew; DESIGN §4: view = roles 1–3, add/edit = 1–2).
 * The foreman lists are read by anyone signed in: the job and ticket screens offer them.
 */
export async function crewRoutes(app: App, ctx: AppContext) {
  app.get('/crew/allCrew', { ...allow('crew.view'), schema: { tags, response: { 200: z.array(crewMember), ...errors } } }, (request) =>
    service.listCrew(ctx, request.user)
  );

  app.get('/crew/foremen', { ...allow('read'), schema: { tags, response: { 200: z.array(foremanOption), ...errors } } }, (request) =>
    service.foremen(ctx, request.user)
  );

  app.get('/crew/working_foremen', { ...allow('read'), schema: { tags, response: { 200: z.array(foremanOption), ...errors } } }, (request) =>
    service.workingForemen(ctx, request.user)
  );

  app.get(
    '/crew/foreman-crew',
    {
      ...allow('read'),
      schema: {
        tags,
        querystring: z.object({ job_id: z.coerce.number().int().positive().max(2_147_483_647) }),
        response: { 200: z.array(foremanCrewMember), ...errors },
      },
    },
    (request) => service.foremanCrew(ctx, request.user, request.query.job_id),
  );

  app.post('/crew', { ...allow('crew.write'), schema: { tags, body: z.object({ crew: crewCreate }), response: { 200: crewSaveReply, ...errors } } }, (request) =>
    service.createMember(ctx, request.user, request.body.crew, (err) => request.log.error({ err }, 'crew invitation mail failed'))
  );

  app.put(
    '/crew/:id',
    { ...allow('crew.write'), schema: { tags, params: idParams, body: z.object({ crew: crewUpdate }), response: { 200: crewSaveReply, ...errors } } },
    (request) => service.updateMember(ctx, request.user, request.params.id, request.body.crew),
  );

  app.post(
    '/crew/:id/reset-password',
    {
      ...allow('crew.write'),
      schema: { tags, params: idParams, response: { 200: z.object({ success: z.boolean(), message: z.string() }), ...errors } },
    },
    (request) => service.sendResetLink(ctx, request.user, request.params.id, (err) => request.log.error({ err }, 'crew reset mail failed')),
  );

  app.post(
    '/crew/:id/resend-invitation',
    {
      ...allow('crew.write'),
      schema: {
        tags,
        summary: 'Mail a new 7-day invitation to a member who has not set a password yet (409 once they have)',
        params: idParams,
        response: { 200: z.object({ success: z.boolean(), message: z.string() }), 429: errorReply, 502: errorReply, ...errors },
      },
    },
    (request) => service.resendInvitation(ctx, request.user, request.params.id, (err) => request.log.error({ err }, 'crew invitation mail failed')),
  );
}
