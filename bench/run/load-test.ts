import { median } from '../lib/common';
import autocannon, { type RequestSpec } from '../lib/load-client';
import type { RouteLoad } from './figures';
import { CONNECTIONS, DURATION, LOAD_BUDGET_MS, RUNS } from './options';

/** Waits until the server has worked off what a load run left in flight (health queues behind it). */
export async function drain(origin: string) {
  await fetch(`${origin}/api/v1/health`, { signal: AbortSignal.timeout(180_000) })
    .then((r) => r.arrayBuffer())
    .catch(() => {});
}

/**
 * autocannon with CONNECTIONS connections; medians of the runs. First one client alone (4
 * requests after a warm-up one): that latency picks the mode. A route fast enough for several
 * rounds per run gets RUNS runs of DURATION seconds; a slow one gets runs of a fixed number of
 * requests (2 per connection, so nothing is cut off at the end of a run), as many as fit in
 * LOAD_BUDGET_MS. Responses still in flight are waited for before the next test.
 */
export async function loadTest(
  origin: string,
  opts: { method: string; path: string; token: string; requests?: RequestSpec[]; between?: () => Promise<void> },
): Promise<RouteLoad> {
  const base = {
    url: origin,
    timeout: 120,
    // As a browser sends them (Accept-Encoding included: every browser asks for gzip).
    // content-type only with a body: Fastify answers 400 to an empty JSON body.
    headers: {
      authorization: `Bearer ${opts.token}`,
      accept: 'application/json',
      'accept-encoding': 'gzip, deflate, br',
      ...(opts.method === 'GET' ? {} : { 'content-type': 'application/json' }),
    },
    requests: opts.requests ?? [{ method: opts.method, path: opts.path }],
  };
  await autocannon({ ...base, connections: 1, amount: 1 });
  const single = await autocannon({ ...base, connections: 1, amount: 4 });
  await opts.between?.();
  const one = single.latency.p50;
  // At CONNECTIONS clients a request may wait for the others (PGlite runs one statement at a time).
  const slow = one * CONNECTIONS * 2 > DURATION * 1000;
  const started = Date.now();
  const runs = [];
  if (!slow) await autocannon({ ...base, connections: CONNECTIONS, duration: 1 }); // warm-up: JIT, pools, caches
  await drain(origin);
  await opts.between?.();
  for (let i = 0; i < RUNS && (i === 0 || Date.now() - started < LOAD_BUDGET_MS); i++) {
    runs.push(await autocannon({ ...base, connections: CONNECTIONS, ...(slow ? { amount: CONNECTIONS * 2 } : { duration: DURATION }) }));
    await drain(origin);
    await opts.between?.();
  }
  return {
    p50: median(runs.map((r) => r.latency.p50)),
    p99: median(runs.map((r) => r.latency.p99)),
    rps: median(runs.map((r) => (slow ? (r.requests.total / Math.max(r.duration, 0.001)) : r.requests.average))),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0) + single.non2xx,
    errors: runs.reduce((n, r) => n + r.errors + r.timeouts, 0),
    requests: runs.reduce((n, r) => n + r.requests.total, 0),
    singleP50: one,
    runs: runs.length,
    mode: slow ? `${runs.length} × ${CONNECTIONS * 2} requests` : `${runs.length} × ${DURATION} s`,
  };
}
