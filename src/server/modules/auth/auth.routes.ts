import { z } from 'zod';
import {
  forgotBody,
  loginBody,
  profile,
  profileUpdate,
  resetBody,
  roleOption,
  sessionReply,
  signUpBody,
} from '../../../shared/auth.schemas';
import type { App, AppContext } from '../../context';
import * as service from './auth.service';

const errorReply = z.object({ error: z.string(), status: z.string().optional() });
const publicRoute = { public: true } as const;

/** Sign-in and one's own account (SPEC §7 Account). Thin: validation here, rules in the service. */
export async function authRoutes(app: App, ctx: AppContext) {
  app.post(
    '/crew/login',
    { config: publicRoute, schema: { tags: ['account'], body: loginBody, response: { 200: sessionReply, 400: errorReply, 403: errorReply } } },
    (request) => service.login(ctx, request.body, request.ip),
  );

  app.post('/crew/sign-up', { config: publicRoute, schema: { tags: ['account'], body: signUpBody, response: { 200: sessionReply } } }, (request) =>
    service.signUp(ctx, request.body),
  );

  app.post(
    '/crew/forgot-password',
    { config: publicRoute, schema: { tags: ['account'], body: forgotBody, response: { 200: z.object({ success: z.boolean(), message: z.string() }) } } },
    (request) => service.forgotPassword(ctx, request.body, (err) => request.log.error({ err }, 'reset mail failed')),
  );

  app.post('/crew/reset-password', { config: publicRoute, schema: { tags: ['account'], body: resetBody, response: { 200: sessionReply } } }, (request) =>
    service.resetPassword(ctx, request.body),
  );

  app.get('/crew/myData', { schema: { tags: ['account'], response: { 200: z.array(profile) } } }, async (request) => [
    await service.getProfile(ctx, request.user),
  ]);

  app.put(
    '/crew/myProfileData',
    { schema: { tags: ['account'], body: z.object({ user: profileUpdate }), response: { 200: z.object({ success: z.boolean(), user: profile }) } } },
    (request) => service.updateProfile(ctx, request.user, request.body.user),
  );

  app.get('/crew/configurableRoles', { schema: { tags: ['account'], response: { 200: z.array(roleOption) } } }, (request) =>
    service.configurableRoles(ctx, request.user),
  );
}
