import type { FastifyInstance, RouteOptions } from 'fastify';
import { takesIdempotencyKey } from './idempotency';
import { changesState, type RoutePermission } from './routes';

export interface RegisteredRoute {
  method: string;
  url: string;
  public: boolean;
  /** Whether a call to it changes state (plugins/routes.ts `changesState`). */
  changesState: boolean;
  /** Whether it takes an `Idempotency-Key` (plugins/idempotency.ts `takesIdempotencyKey`). */
  takesIdempotencyKey: boolean;
  /** The permission it declares (`config.allow`), if any. */
  allow: RoutePermission | undefined;
  /** The route's declared schema (zod), as the route gave it. */
  schema: RouteOptions['schema'];
}

const lists = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/**
 * Records every route registered on the app from now on, so tests can walk all of them
 * (e.g. the hostile-input test) without keeping a hand-written list that drifts.
 */
export function collectRoutes(app: FastifyInstance) {
  const list: RegisteredRoute[] = [];
  lists.set(app, list);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      list.push({
        method,
        url: route.url,
        public: Boolean(route.config?.public),
        changesState: changesState(method, route.config),
        takesIdempotencyKey: takesIdempotencyKey(method, route.url, route.config),
        allow: route.config?.allow,
        schema: route.schema,
      });
    }
  });
}

export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return lists.get(app) ?? [];
}
