import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  forgotBody,
  loginBody,
  logoutAllReply,
  messageReply,
  profile,
  profileSaveReply,
  profileUpdate,
  resetBody,
  roleOption,
  sessionIdParams,
  sessionReply,
  sessionsReply,
  signUpBody,
} from '../../../shared/auth.schemas';
import type { App, AppContext } from '../../context';
import * as service from './auth.service';
import * as sessions from './sessions.service';
import { clearSessionCookie, setSessionCookie } from './session-cookie';

const publicRoute = { public: true } as const;

/** The device a sign-in comes from, for its session row. */
const deviceOf = (request: FastifyRequest) => ({ userAgent: request.headers['user-agent'], ip: request.ip });
const ownAccount = { allow: 'profile' } as const;

/** Sign-in and one's own account (docs/product/api.md §2 Account). Thin: validation here, rules in the service. */
export async function authRoutes(app: App, ctx: AppContext) {
  // Work a service defers until its reply has gone (mail): run after the response, tracked so
  // that closing the app waits for it, and logged if it fails (the reply cannot say so).
  const deferred = new WeakMap<FastifyRequest, () => Promise<void>>();
  const running = new Set<Promise<void>>();
  const later = (request: FastifyRequest): service.Later => (work) => deferred.set(request, work);
  const runDeferred = async (request: FastifyRequest) => {
    const work = deferred.get(request);
    if (!work) return;
    const run = work()
      .catch((err: unknown) => request.log.error({ err }, `${request.routeOptions.url}: work after the reply failed`))
      .finally(() => running.delete(run));
    running.add(run);
  };
  app.addHook('onClose', async () => {
    await Promise.allSettled([...running]);
  });

  app.post(
    '/crew/login',
    {
      config: publicRoute,
      schema: { tags: ['account'], summary: 'Sign in with e-mail and password: a session token (also set as the cookie); integrators use an API token instead', body: loginBody, response: { 200: sessionReply } },
    },
    async (request, reply) => {
      const session = await service.login(ctx, request.body, deviceOf(request));
      setSessionCookie(request, reply, session.token);
      return session;
    },
  );

  app.post(
    '/crew/sign-up',
    { config: publicRoute, onResponse: runDeferred, schema: { tags: ['account'], summary: 'Sign up a new company and its Admin (an e-mail link sets the password)', body: signUpBody, response: { 200: messageReply } } },
    (request) => service.signUp(ctx, request.body, request.ip, later(request)),
  );

  app.post(
    '/crew/forgot-password',
    { config: publicRoute, onResponse: runDeferred, schema: { tags: ['account'], summary: 'Send a password reset link to this e-mail (the same answer whether or not it is known)', body: forgotBody, response: { 200: messageReply } } },
    (request) => service.forgotPassword(ctx, request.body, request.ip, later(request)),
  );

  app.post(
    '/crew/reset-password',
    {
      config: publicRoute,
      schema: { tags: ['account'], summary: 'Set a new password with a reset link: ends every session, then signs in this device', body: resetBody, response: { 200: sessionReply } },
    },
    // No cookie: the reset page sends the person to /login (docs/product/screens.md); API clients get the token.
    (request) => service.resetPassword(ctx, request.body, deviceOf(request)),
  );

  // Sessions per device (docs/product/sessions-and-safety.md §4).
  app.post(
    '/crew/logout',
    { config: ownAccount, schema: { tags: ['account'], summary: 'Sign out this device: ends the session of this token only and clears the cookie', response: { 200: z.object({ success: z.boolean() }) } } },
    async (request, reply) => {
      const result = await sessions.logout(ctx, request);
      clearSessionCookie(request, reply);
      return result;
    },
  );

  app.post(
    '/crew/logout-all',
    {
      config: ownAccount,
      schema: { tags: ['account'], summary: 'Sign out everywhere: ends every session of mine, this one too, and clears the cookie; `ended` counts them', response: { 200: logoutAllReply } },
    },
    async (request, reply) => {
      const result = await sessions.logoutAll(ctx, request, false);
      clearSessionCookie(request, reply);
      return result;
    },
  );

  app.post(
    '/crew/logout-others',
    {
      config: ownAccount,
      schema: { tags: ['account'], summary: '"Sign out everywhere else": ends every session of mine but this one; `ended` counts them', response: { 200: logoutAllReply } },
    },
    (request) => sessions.logoutAll(ctx, request, true),
  );

  app.get(
    '/crew/sessions',
    { config: ownAccount, schema: { tags: ['account'], summary: 'My sessions (one per sign-in): this device first, then the most recently seen', response: { 200: sessionsReply } } },
    (request) => sessions.listSessions(ctx, request),
  );

  app.delete(
    '/crew/sessions/:id',
    {
      config: ownAccount,
      schema: {
        tags: ['account'],
        summary: "End one of my sessions (another device's, or this one); another user's session, or one already ended, is 404",
        params: sessionIdParams,
        response: { 200: z.object({ success: z.boolean(), current: z.boolean() }) },
      },
    },
    async (request, reply) => {
      const result = await sessions.endSession(ctx, request, request.params.id);
      if (result.current) clearSessionCookie(request, reply);
      return result;
    },
  );

  app.get('/crew/myData', { config: ownAccount, schema: { tags: ['account'], summary: 'My profile (a list of one)', response: { 200: z.array(profile) } } }, async (request) => [
    await service.getProfile(ctx, request.user),
  ]);

  app.put(
    '/crew/myProfileData',
    { config: ownAccount, schema: { tags: ['account'], summary: 'Change my profile (a new e-mail needs the current password)', body: z.object({ user: profileUpdate }), response: { 200: profileSaveReply } } },
    (request) => service.updateProfile(ctx, request.user, request.body.user, (err) => request.log.error({ err }, 'e-mail change notice failed')),
  );

  app.get('/crew/configurableRoles', { config: ownAccount, schema: { tags: ['account'], summary: 'The roles I may give a crew member, with the company\'s names for them', response: { 200: z.array(roleOption) } } }, (request) =>
    service.configurableRoles(ctx, request.user),
  );
}
