import type { FastifyContextConfig, FastifyInstance, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z, type ZodType } from 'zod';
import { CSRF_HEADER, SESSION_COOKIE } from '../../shared/constants';
import type { Config } from '../config';
import { NOT_FOR_API_TOKENS } from './auth';
import { takesIdempotencyKey } from './idempotency';
import { changesState } from './routes';

/**
 * The OpenAPI document at /api/docs/json (docs/product/api.md §1, decision 049), written so that
 * an integrator needs nothing else, and checked against Redocly's `recommended` rules in
 * openapi.lint.test.ts. What every operation shares is said here, from each route's own config
 * (the rules the server enforces), never by hand per route: its security (public, or a session,
 * an API token, or the cookie with the CSRF header on a change), its operationId, the
 * Idempotency-Key it takes and the Idempotent-Replayed header of a replay, whether its body
 * may be left out. A route adds only what no rule can know (`config.openapi`: a file reply's
 * media types, query parameters its handler requires itself).
 */

/** What a route tells the document that its schema cannot say. */
export interface RouteDoc {
  /** The 200 reply is a file of these media types (PDF, XLSX, KML…), not JSON. */
  fileReply?: { types: readonly string[]; description: string };
  /** Query parameters the handler requires though the schema lets them be absent (the handler words the refusal). */
  requiredQuery?: readonly string[];
  /** Added to the operation as it is (the signed upload's parameters and body, a webhook's callback). */
  operation?: Record<string, unknown>;
  /** Named schemas the operation refers to (`#/components/schemas/<name>`), e.g. what a webhook POSTs. */
  schemas?: Record<string, ZodType>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Extra words for the OpenAPI document (plugins/openapi.ts). */
    openapi?: RouteDoc;
  }
}

type Json = Record<string, unknown>;

/** What the document needs to know of a route, by method and path as the document writes it. */
interface RouteFacts {
  config: FastifyContextConfig | undefined;
  method: string;
  bodyOptional: boolean;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** `/tickets/:id/tasks/:ticket_task_id` → `/tickets/{id}/tasks/{ticket_task_id}`; the trailing slash is dropped (the router ignores it). */
export function documentPath(url: string): string {
  const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\/\*$/, '/{key}');
  return path.length > 1 ? path.replace(/\/$/, '') : path;
}

/**
 * A stable, readable operationId from the method and path: `PATCH /api/v1/tickets/{id}/tasks/{ticket_task_id}`
 * → `patchTicketsByIdTasksByTicketTaskId`. A route may set its own with `schema.operationId`.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/v1/, '')
    .split('/')
    .filter(Boolean)
    .map((part) => {
      const param = /^\{(.+)\}$/.exec(part);
      const word = (param ? `by_${param[1]}` : part).replace(/[^A-Za-z0-9]+/g, '_');
      return word
        .split('_')
        .filter(Boolean)
        .map((w) => w[0].toUpperCase() + w.slice(1))
        .join('');
    });
  return method.toLowerCase() + words.join('');
}

const SECURITY_SCHEMES = {
  session: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The `token` of `POST /api/v1/crew/login` (a person signed in), as `Authorization: Bearer <token>`.',
  },
  apiToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'lc_…',
    description:
      'An API token an Admin made on the API tokens page (`POST /api/v1/api-tokens`), as `Authorization: Bearer lc_…`. It acts as that Admin at the role it was given. Never sent in a cookie; needs no CSRF header.',
  },
  cookie: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'The session cookie the web app sets at sign-in. A change (POST, PUT, PATCH, DELETE) signed in by the cookie must also send the CSRF header.',
  },
  csrfHeader: {
    type: 'apiKey',
    in: 'header',
    name: CSRF_HEADER,
    description: 'Any value. Required with the cookie on a change, so that another site cannot make the browser send one.',
  },
} as const;

const IDEMPOTENCY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'A new unique value (a UUID) per change. Sent again with the same request, the change is applied once and the stored reply is answered again, with `Idempotent-Replayed: true`. The same key with a different request answers 422; while the first is still running, 409.',
  schema: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]{1,200}$' },
};

const REPLAYED_HEADER = {
  description: 'Present (`true`) when this reply is the stored reply of an earlier request with the same `Idempotency-Key`: nothing was applied again.',
  schema: { type: 'string', enum: ['true'] },
};

/** Who may call a route, from the rules of plugins/auth.ts. */
function securityOf(method: string, config: FastifyContextConfig | undefined) {
  if (config?.public) return [];
  const cookie = changesState(method, config) ? { cookie: [], csrfHeader: [] } : { cookie: [] };
  const token = NOT_FOR_API_TOKENS.has(config?.allow) ? [] : [{ apiToken: [] }];
  return [{ session: [] }, ...token, cookie];
}

/**
 * OpenAPI 3.0 has no null type: `nullable` needs a `type` beside it. zod writes
 * `{anyOf: [...], nullable: true}` for a nullable union, which is said again on each branch.
 */
function fixNullable(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(fixNullable);
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  if (o.nullable === true && o.type === undefined) {
    for (const key of ['anyOf', 'oneOf']) {
      if (Array.isArray(o[key])) for (const branch of o[key] as Json[]) if (branch.type !== undefined) branch.nullable = true;
    }
    delete o.nullable;
  }
  Object.values(o).forEach(fixNullable);
}

function finishOperation(op: Json, path: string, facts: RouteFacts | undefined) {
  const method = facts?.method ?? 'GET';
  const config = facts?.config;
  op.operationId ??= operationIdOf(method, path);
  op.security = securityOf(method, config);
  const responses = (op.responses ??= {}) as Record<string, Json>;
  const doc = config?.openapi;
  if (doc?.fileReply) {
    responses['200'] = {
      description: doc.fileReply.description,
      headers: { 'Content-Disposition': { description: 'attachment; filename="…" (the file name to save as)', schema: { type: 'string' } } },
      content: Object.fromEntries(doc.fileReply.types.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
    };
  }
  if (doc?.requiredQuery) {
    for (const p of (op.parameters ?? []) as Json[]) if (p.in === 'query' && doc.requiredQuery.includes(p.name as string)) p.required = true;
  }
  if (facts?.bodyOptional && op.requestBody) (op.requestBody as Json).required = false;
  if (facts && takesIdempotencyKey(facts.method, path, config)) {
    op.parameters = [...((op.parameters ?? []) as Json[]), { $ref: '#/components/parameters/IdempotencyKey' }];
    for (const [status, reply] of Object.entries(responses)) {
      if (!status.startsWith('2')) continue;
      reply.headers = { ...(reply.headers as Json | undefined), 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } };
    }
  }
  if (doc?.operation) Object.assign(op, doc.operation);
}

/** Swagger and its UI, with the rules above. Registered before any route (it records them as they come). */
export async function registerOpenApi(app: FastifyInstance, config: Config) {
  const facts = new Map<string, RouteFacts>();
  const keyOf = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Linecrew API',
        version: '1',
        description:
          'The API of Linecrew: jobs, tickets (one per pole) and their tasks, photos, production and invoices. Start with docs/api.md (a walkthrough with a client that is run by the tests). Sign in with an API token (`Authorization: Bearer lc_…`), send an `Idempotency-Key` with every change, and send back the `version` you read when you update a record.',
      },
      servers: [{ url: config.publicUrl, description: 'This server (PUBLIC_URL)' }],
      components: {
        securitySchemes: SECURITY_SCHEMES as never,
        parameters: { IdempotencyKey: IDEMPOTENCY_PARAMETER as never },
        headers: { IdempotentReplayed: REPLAYED_HEADER as never },
      },
    },
    transform: (input) => {
      const { route } = input as { route: RouteOptions };
      const out = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
      const path = documentPath(input.url);
      const body = route.schema?.body as ZodType | undefined;
      for (const method of [route.method].flat()) {
        facts.set(keyOf(method, path), {
          config: route.config as FastifyContextConfig | undefined,
          method: method.toUpperCase(),
          bodyOptional: Boolean(body && typeof body.safeParse === 'function' && body.safeParse(undefined).success),
        });
      }
      return { schema: out.schema, url: path };
    },
    transformObject: (documentObject) => {
      const doc = (documentObject as { openapiObject: Json }).openapiObject;
      for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
        for (const method of HTTP_METHODS) {
          const op = item[method] as Json | undefined;
          if (op) finishOperation(op, path, facts.get(keyOf(method, path)));
        }
      }
      // Named schemas that routes refer to (what a webhook POSTs), written as the routes' own are.
      const schemas = (((doc.components ??= {}) as Json).schemas ??= {}) as Json;
      for (const { config: c } of facts.values()) {
        for (const [name, schema] of Object.entries(c?.openapi?.schemas ?? {})) schemas[name] = z.toJSONSchema(schema, { target: 'openapi-3.0' });
      }
      fixNullable(doc.paths);
      fixNullable(doc.components);
      return doc;
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
}
