import { z } from 'zod';
import { messageReply } from '../../../shared/auth.schemas';
import { crewCreate, crewMember, crewSaveReply, crewUpdate, foremanCrewMember, foremanOption } from '../../../shared/crew.schemas';
import type { App, AppContext } from '../../context';
import { idParams, rowId } from '../../plugins/routes';
import * as service from './crew.service';

const tags = ['crew'];

/**
 * The crew roster (docs/product/api.md §2 Account and crew; docs/product/roles-and-statuses.md §2: view = roles 1–3, add/edit = 1–2).
 * The foreman lists are read by anyone signed in: the job and ticket screens offer them.
 */
export async function crewRoutes(app: App, ctx: AppContext) {
  app.get('/crew/allCrew', { config: { allow: 'crew.view' }, schema: { tags, summary: "The company's crew members", response: { 200: z.array(crewMember) } } }, (request) =>
    service.listCrew(ctx, request.user)
  );

  app.get('/crew/foremen', { config: { allow: 'read' }, schema: { tags, summary: 'Active foremen (role 3), for choosing a job\'s foreman', response: { 200: z.array(foremanOption) } } }, (request) =>
    service.foremen(ctx, request.user)
  );

  app.get('/crew/working_foremen', { config: { allow: 'read' }, schema: { tags, summary: 'Active working foremen (role 4), for assigning a ticket', response: { 200: z.array(foremanOption) } } }, (request) =>
    service.workingForemen(ctx, request.user)
  );

  app.get(
    '/crew/foreman-crew',
    {
      config: { allow: 'read' },
      schema: {
        tags,
        summary: "The crew of the job's foreman",
        querystring: z.object({ job_id: rowId }),
        response: { 200: z.array(foremanCrewMember) },
      },
    },
    (request) => service.foremanCrew(ctx, request.user, request.query.job_id),
  );

  app.post('/crew', { config: { allow: 'crew.write' }, schema: { tags, summary: 'Add a crew member (an invitation e-mail sets the password)', body: z.object({ crew: crewCreate }), response: { 200: crewSaveReply } } }, (request) =>
    service.createMember(ctx, request.user, request.body.crew, (err) => request.log.error({ err }, 'crew invitation mail failed'))
  );

  app.put(
    '/crew/:id',
    { config: { allow: 'crew.write' }, schema: { tags, summary: 'Change a crew member (name, e-mail, role, status, foreman)', params: idParams, body: z.object({ crew: crewUpdate }), response: { 200: crewSaveReply } } },
    (request) => service.updateMember(ctx, request.user, request.params.id, request.body.crew),
  );

  app.post(
    '/crew/:id/reset-password',
    {
      config: { allow: 'crew.write' },
      schema: { tags, summary: 'E-mail a crew member a link to set a new password', params: idParams, response: { 200: messageReply } },
    },
    (request) => service.sendResetLink(ctx, request.user, request.params.id, (err) => request.log.error({ err }, 'crew reset mail failed')),
  );

  app.post(
    '/crew/:id/resend-invitation',
    {
      config: { allow: 'crew.write' },
      schema: {
        tags,
        summary: 'Mail a new 7-day invitation to a member who has not set a password yet (409 once they have)',
        params: idParams,
        response: { 200: messageReply },
      },
    },
    (request) => service.resendInvitation(ctx, request.user, request.params.id, (err) => request.log.error({ err }, 'crew invitation mail failed')),
  );
}
