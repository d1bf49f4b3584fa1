import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ERROR_CODE } from '../../shared/error-codes';
import type { Action } from '../../shared/permissions';

/**
 * What every route shares, in one place: the shape of an error reply, the id of a row in a path
 * or query, and the permission a route declares (`config: { allow }`, enforced by plugins/auth.ts).
 */

/**
 * Every failure reply (plugins/errors.ts): the message in `error` and, for the spec's crew
 * client, again in `status`; `fields` for a 400 that names fields; `code` when a client must
 * tell refusals of one status apart; `requestId` on a 500.
 */
export const errorReply = z.object({
  error: z.string(),
  status: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  code: z.enum(Object.values(ERROR_CODE)).optional(),
  requestId: z.string().optional(),
});

/** The id of a row (a PostgreSQL integer) in a path or query string. */
export const rowId = z.coerce.number().int().positive().max(2_147_483_647);
export const idParams = z.object({ id: rowId });

/**
 * A route whose permission depends on its input (upload signing: the kind of file decides) says
 * so with this instead of an action, and calls `request.require()` in its handler.
 */
export const CHECKED_IN_HANDLER = 'checked-in-handler';

/** What a route may declare in `config.allow`. */
export type RoutePermission = Action | typeof CHECKED_IN_HANDLER;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The action of docs/product/roles-and-statuses.md §2's matrix the caller's role must be allowed. Every route that is
     * not `public` declares one; plugins/auth.ts refuses with 403 before the body is read, so a
     * role that may not act gets 403 whatever it sent.
     */
    allow?: RoutePermission;
    /**
     * A GET that changes data (SPEC's `GET /jobs/delete/{id}`): guarded against cross-site
     * requests like POST/PUT/DELETE are, and takes an `Idempotency-Key` like them.
     */
    changesState?: boolean;
    /**
     * The reply carries a secret shown once (an API token, a webhook signing secret): it takes no
     * `Idempotency-Key`, so the secret is never stored in the idempotency table for 24 hours. A
     * repeated request makes a second one, which the Admin sees in the list and can revoke.
     */
    secretReply?: boolean;
  }
}

/**
 * A Content-Disposition that makes the browser save the reply as `fileName`: `filename` in plain
 * ASCII (other characters as '_', for old clients) and, when the name has more, `filename*` in
 * UTF-8 (RFC 6266 / RFC 8187). A header value may not hold non-Latin-1 text at all (Node throws),
 * so a job number in any script still downloads under its own name.
 */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const plain = `attachment; filename="${ascii}"`;
  if (ascii === fileName) return plain;
  let encoded: string;
  try {
    encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  } catch {
    return plain; // a lone surrogate has no UTF-8 form
  }
  return `${plain}; filename*=UTF-8''${encoded}`;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a call to a route changes state: any method but GET/HEAD/OPTIONS, and the routes
 * marked `changesState`. Such a call must carry the CSRF header when signed in by the cookie
 * (plugins/auth.ts) and may carry an `Idempotency-Key` (plugins/idempotency.ts).
 */
export function changesState(method: string, config: FastifyContextConfig | undefined): boolean {
  return !SAFE_METHODS.has(method) || config?.changesState === true;
}

/**
 * Adds `errorReply` as the 4xx and 5xx reply of every route that has a schema (so it is
 * documented in OpenAPI and `code` is let through by the serializer). A status the route
 * declares itself (a 409 with a preview, a 422 with row problems) keeps the route's schema.
 * Registered before any route (an onRoute hook sees only routes added after it).
 */
export function registerRouteDefaults(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (!route.schema) return;
    route.schema.response = { '4xx': errorReply, '5xx': errorReply, ...(route.schema.response as object | undefined) };
  });
}

/**
 * A row as the zod serializer would send it: exactly the object schema's keys, in its order (zod
 * builds its output in the shape's order), without checking the values again. For a reply built
 * to its route's schema and sent as JSON text without the zod serializer (app.ts
 * `serializerCompiler`), which parses every value again (a copy of each row) before
 * JSON.stringify: for My Work's 500 ticket rows that was ~20 ms of CPU per request (decision 054).
 * The route keeps its response schema (OpenAPI), and its API test holds the bytes to what the
 * schema's serializer sends (same keys, same order). My Work's reply is kept as such bytes
 * (work.service myWorkReply).
 */
export function inShapeOrder<S extends z.ZodObject>(schema: S): (row: z.output<S>) => z.output<S> {
  const keys = Object.keys(schema.shape);
  return (row) => {
    const out: Record<string, unknown> = {};
    for (const key of keys) out[key] = (row as Record<string, unknown>)[key];
    return out as z.output<S>;
  };
}
