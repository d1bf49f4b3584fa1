import { existsSync } from 'node:fs';
import path from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import Fastify, { type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_PREFIX } from '../shared/constants';
import { MSG } from '../shared/messages';
import type { App, AppContext } from './context';
import { fastifyTrustProxy } from './config';
import { clientErrorReply, registerErrorHandler } from './plugins/errors';
import { registerAuth } from './plugins/auth';
import { registerIdempotency } from './plugins/idempotency';
import { registerOpenApi } from './plugins/openapi';
import { registerInputTextCheck } from './plugins/input-text';
import { registerJsonDepthLimit } from './plugins/json-depth';
import { collectRoutes } from './plugins/route-list';
import { ReplyCache } from './plugins/reply-cache';
import { registerRouteDefaults } from './plugins/routes';
import { registerSecurityHeaders } from './plugins/security-headers';
import { pagesWithPreloads, sendPageHtml, type PageHtml } from './page-html';
import { healthRoutes } from './modules/health/health.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { companyRoutes } from './modules/auth/company.routes';
import { apiTokenRoutes } from './modules/auth/api-tokens.routes';
import { crewRoutes } from './modules/crew/crew.routes';
import { importColumnRoutes, spreadsheetUploadRoutes } from './modules/imports/imports.routes';
import { uploadRoutes } from './modules/uploads/uploads.routes';
import { localFileRoutes } from './modules/uploads/files.routes';
import { unitRoutes } from './modules/reference/units.routes';
import { poleRoutes } from './modules/poles/poles.routes';
import { referenceRoutes } from './modules/reference/reference.routes';
import { ticketRoutes } from './modules/tickets/tickets.routes';
import { createTicketForPole, loadTicket } from './modules/tickets/tickets.service';
import type { TicketSlices } from './modules/jobs/job-page-reply';
import { jobsRoutes } from './modules/jobs/jobs.routes';
import { workRoutes } from './modules/work/work.routes';
import { mapRoutes } from './modules/map/map.routes';
import { productionRoutes } from './modules/production/production.routes';
import { invoiceRoutes } from './modules/invoices/invoices.routes';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { exportRoutes } from './modules/exports/exports.routes';
import { webhookRoutes } from './modules/webhooks/webhooks.routes';

export interface BuildOptions extends AppContext {
  /** Built web app to serve (dist/web); omitted in API tests. */
  webDir?: string;
  logger?: FastifyServerOptions['logger'];
}

/** The whole server as a Fastify instance that is not listening yet: main.ts listens, tests inject. */
export async function buildApp(opts: BuildOptions): Promise<App> {
  const { webDir, logger, ...ctx } = opts;
  const app = Fastify({
    logger: logger ?? false,
    trustProxy: fastifyTrustProxy(ctx.config.trustProxy),
    bodyLimit: 1024 * 1024,
    // `/tickets/` (the SPEC's spelling) and `/tickets` are one route: the OpenAPI document names
    // paths without the slash (Redocly's rule), and both spellings keep working.
    routerOptions: { ignoreTrailingSlash: true },
    genReqId: () => crypto.randomUUID(),
    clientErrorHandler: clientErrorReply,
  }).withTypeProvider<ZodTypeProvider>();
  registerRouteDefaults(app);
  registerIdempotency(app, ctx.db);
  collectRoutes(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  await registerSecurityHeaders(app, ctx.storage, ctx.config.map.tileSource);
  registerJsonDepthLimit(app);
  registerInputTextCheck(app);

  await app.register(cookie);
  await app.register(formbody);
  await registerOpenApi(app, ctx.config);

  await app.register(
    async (api: App) => {
      // API replies are JSON that shrinks ~20× (My Work's 390 KB list → ~19 KB gzip): a crew on
      // one bar of signal pays for every byte, so the app compresses rather than leaving it to a
      // proxy that may not be there (docs/product/field-mode.md). Registered inside the API scope, after the
      // idempotency hook, so stored replays keep the plain body; replies that set their own
      // Content-Encoding (the job page, compressed once per change) pass through untouched.
      // Request bodies are not inflated: the body limit stays a limit on what we read.
      // Brotli quality 3 rather than the plugin's 4: My Work's 404 KB in 40–60 % of the CPU for
      // 7 % more bytes (16.8 KB instead of 15.6 KB; decision 054).
      await api.register(compress, {
        globalDecompression: false,
        encodings: ['br', 'gzip', 'deflate'],
        brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT, [zlibConstants.BROTLI_PARAM_QUALITY]: 3 } },
        // Replies up to 64 KB (a jobs page of 50 is ~40 KB) are compressed in one call on the
        // event loop (~0.2–0.3 ms at quality 3) rather than through a stream pipeline and the
        // libuv pool, whose per-reply streams, hand-offs and wake-ups cost more than the
        // compression itself on two cores (the plugin's default there is 8 KB; decision 063).
        syncThreshold: 64 * 1024,
      });
      registerAuth(api, ctx);
      await healthRoutes(api, ctx);
      await authRoutes(api, ctx);
      await companyRoutes(api, ctx);
      await apiTokenRoutes(api, ctx);
      await crewRoutes(api, ctx);
      await importColumnRoutes(api, ctx);
      await uploadRoutes(api, ctx);
      await unitRoutes(api, ctx);
      // Adding a pole to a job writes its ticket: the tickets module is above poles, so it is handed in.
      await poleRoutes(api, ctx, { createTicketForPole, loadTicket });
      await referenceRoutes(api, ctx);
      await ticketRoutes(api, ctx);
      await spreadsheetUploadRoutes(api, ctx);
      // One budget (JOB_CACHE_MB) for every reply kept as bytes: job pages, jobs lists, My Work, production, the dashboard.
      const replies = new ReplyCache<TicketSlices>(ctx.config.jobCacheBytes);
      await jobsRoutes(api, ctx, replies);
      await workRoutes(api, ctx, replies);
      await mapRoutes(api, ctx);
      await productionRoutes(api, ctx, replies);
      await invoiceRoutes(api, ctx);
      await dashboardRoutes(api, ctx, replies);
      await exportRoutes(api, ctx);
      await webhookRoutes(api, ctx);
    },
    { prefix: API_PREFIX },
  );
  await localFileRoutes(app, ctx);

  const hasWeb = Boolean(webDir && existsSync(path.join(webDir, 'index.html')));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDir!,
      wildcard: true,
      // The .br / .gz files the build writes beside each asset (vite.config.ts).
      preCompressed: true,
      maxAge: '1h',
      // Names under /assets/ carry a hash of their content: they never change, so browsers keep
      // them. index.html names the current ones: always asked for again (after a release it
      // must not point at assets that are gone).
      setHeaders: (reply, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) reply.header('cache-control', 'public, max-age=31536000, immutable');
        // The service worker and the manifest name the current release too: a browser that kept
        // an old sw.js would keep serving the old app shell (docs/product/field-mode.md §3: never stale forever).
        else if (/\.(html|webmanifest)$|[\\/]sw(-network-routes)?\.js$/.test(filePath)) reply.header('cache-control', 'no-cache');
        if (filePath.endsWith('.webmanifest')) reply.header('content-type', 'application/manifest+json; charset=utf-8');
      },
    });
  }
  // A page whose lazy chunks the build listed (/job) gets index.html with them preloaded (decision 064).
  const pages = hasWeb ? pagesWithPreloads(webDir!) : new Map<string, PageHtml>();
  // The React router owns every other page path; API, file and asset misses answer a JSON 404.
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    if (hasWeb && request.method === 'GET' && !/^\/(api|files|assets)\//.test(url)) {
      const page = pages.get(url);
      return page ? sendPageHtml(request, reply, page) : reply.sendFile('index.html');
    }
    return reply.status(404).send({ error: `${MSG.notFound}: ${request.method} ${url}`, status: MSG.notFound });
  });
  return app;
}
