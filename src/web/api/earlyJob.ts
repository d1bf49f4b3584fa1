import { API_PREFIX, CSRF_HEADER } from '../../shared/constants';

/**
 * The big job's request, sent before the app has loaded (docs/product/scale.md §3: a 5,000-ticket job's table
 * and map usable < 1.5 s; decision 060). A page opened at /job?id=… asked for its job only once
 * the router's module ran, i.e. after the whole first chunk (React, Mantine, the router, ~90 KB
 * compressed) had arrived and run: ~1.3 s of a cold load. src/web/early.ts, bundled on its own
 * with this module (vite.config.ts `earlyJob()`, an async script that runs as soon as it
 * arrives, before the app's chunk and its stylesheet), sends the request the page will send
 * (`getJob`: same path, headers and credentials); the API client takes the reply
 * (`takeEarlyReply`) for the first call of that path instead of asking again.
 *
 * Taken once, and only while fresh (the router's module asks for it as it loads, well within
 * that): a later call, a refetch or another tab's change always goes to the server. Imports
 * nothing but constants: it is bundled on its own.
 */
const EARLY = '__linecrewEarlyJob';
const FRESH_MS = 15_000;

interface EarlyReply {
  path: string;
  at: number;
  reply: Promise<Response>;
}

type WithEarly = typeof globalThis & { [EARLY]?: EarlyReply };

/** Sends GET `path` (a job: `/jobs/N`) now, and keeps the reply for the API client. */
export function startEarlyJob(path: string): void {
  // High priority: over HTTP/1.1 it waits for one of six connections behind the app's ~20
  // module preloads, which the browser asked for first.
  const reply = fetch(`${API_PREFIX}${path}`, { headers: { Accept: 'application/json', [CSRF_HEADER]: '1' }, credentials: 'same-origin', priority: 'high' });
  // Nobody may ever take it (the page moved on): its failure is not an unhandled rejection.
  reply.catch(() => {});
  (globalThis as WithEarly)[EARLY] = { path, at: performance.now(), reply };
}

/** The early reply to GET `path`, once, while fresh; otherwise null (send the request). */
export function takeEarlyReply(path: string): Promise<Response> | null {
  const g = globalThis as WithEarly;
  const early = g[EARLY];
  if (!early || early.path !== path) return null;
  delete g[EARLY];
  return performance.now() - early.at < FRESH_MS ? early.reply : null;
}
