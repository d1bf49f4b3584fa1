import { z } from 'zod';
import { apiTokenCreateBody, apiTokenCreateReply, apiTokensReply } from '../../../shared/api-tokens.schemas';
import type { App, AppContext } from '../../context';
import { idParams } from '../../plugins/routes';
import * as service from './api-tokens.service';

const tags = ['api tokens'];
const allow = { allow: 'apiTokens.manage' } as const;

/** API tokens (docs/product/integrations.md §API tokens): Admins, signed in as themselves (never with a token). */
export async function apiTokenRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api-tokens',
    { config: allow, schema: { tags, summary: "The company's API tokens, with their last use (never their secrets)", response: { 200: apiTokensReply } } },
    (request) => service.listTokens(ctx, request.user),
  );

  app.post(
    '/api-tokens',
    {
      config: { ...allow, secretReply: true },
      schema: {
        tags,
        summary: 'Create an API token: the secret is in this reply only',
        description:
          'The token acts as you, at `role_id` or your own role, whichever may do less; a role above your own answers 400. Send it as `Authorization: Bearer lc_…`.',
        body: apiTokenCreateBody,
        response: { 200: apiTokenCreateReply },
      },
    },
    (request) => service.createToken(ctx, request.user, request.body),
  );

  app.delete(
    '/api-tokens/:id',
    {
      config: allow,
      schema: { tags, summary: 'Revoke an API token: refused at once on every request after', params: idParams, response: { 200: z.object({ success: z.literal(true) }) } },
    },
    (request) => service.revokeToken(ctx, request.user, request.params.id),
  );
}
