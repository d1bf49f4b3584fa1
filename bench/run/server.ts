import { memoryOf, rssSampler, startServer, type ServerProcess } from '../../src/server/test/server-process';
import { measureBrowser } from '../lib/browser';
import { BENCH_FOREMAN, BENCH_PASSWORD, http, serverEnv, type Manifest, type Target } from '../lib/common';
import { measureField } from '../lib/field';
import { importFigures, timeImports } from '../lib/import';
import { measureMap } from '../lib/map';
import { measureVitals } from '../lib/vitals';
import { COLD_ROUTE, PRODUCTION_ROUTE, withSql, type DbResults, type Phase1 } from './figures';
import { loadTest } from './load-test';
import { args, FIELD_SYNCS, FIELD_VISITS, log, PORT, QUICK, RUNS } from './options';
import { rebuiltLoad, rereadVersions } from './rebuilt';

/**
 * Phases 2 and 3 of one database: the real server as a child process (peak RSS from /proc) under
 * the load tests, the workbook import with GET /health sampled, then headless Chromium against it.
 */
export async function phase2(t: Target, m: Manifest, p1: Phase1, res: DbResults) {
  const server: ServerProcess = await startServer({ env: serverEnv(t), port: PORT, timeoutMs: 120_000 });
  const rss = rssSampler(server.pid, 100);
  try {
    await server.ready;
    const origin = server.origin;
    const login = await http(origin, 'POST', '/api/v1/crew/login', undefined, { email: m.adminEmail, password: BENCH_PASSWORD });
    if (login.status !== 200) throw new Error(`sign-in on the server failed: ${login.status}`);
    const token = login.json.token as string;

    // Load tests.
    rss.reset();
    const routes: [string, string][] = [
      ['GET /api/v1/jobs', '/api/v1/jobs'],
      ['GET /api/v1/jobs/{big job}', `/api/v1/jobs/${m.bigJobId}`],
      [PRODUCTION_ROUTE, `/api/v1/jobs/${m.bigJobId}/production`],
    ];
    for (const [name, url] of routes) {
      const probe = await http(origin, 'GET', url, token);
      if (probe.status !== 200) {
        res.load[name] = null;
        res.notes.push(`${name}: ${probe.status} — not load-tested`);
        continue;
      }
      log(`load: ${name}`);
      const fig = await loadTest(origin, { method: 'GET', path: url, token });
      res.load[name] = withSql(fig, p1.sql[name]);
    }
    try {
      log(`load: ${COLD_ROUTE}`);
      res.load[COLD_ROUTE] = withSql(await rebuiltLoad(origin, token, m, p1), p1.sql[COLD_ROUTE]);
    } catch (e) {
      res.load[COLD_ROUTE] = null;
      res.notes.push(`${COLD_ROUTE}: ${(e as Error).message.split('\n')[0]}`);
    }

    // PUT /tickets/: each request takes a free ticket, sends the version it last saw, and puts
    // the ticket back with the version of the reply: no request is stale by construction.
    const free = [...p1.putTickets];
    const probe = free.length ? await http(origin, 'GET', `/api/v1/tickets/${free[0].id}`, token) : { status: 0 };
    // A duration-bound run drops the requests still in flight at its end (their new version is
    // never seen): between runs, every ticket's version is read again and all are free again.
    const resync = async () => {
      await rereadVersions(origin, token, p1.putTickets);
      free.splice(0, free.length, ...p1.putTickets);
    };
    if (probe.status === 200) {
      log('load: PUT /api/v1/tickets/');
      let n = 0;
      const fig = await loadTest(origin, {
        method: 'PUT',
        path: '/api/v1/tickets/',
        token,
        between: resync,
        requests: [
          {
            method: 'PUT',
            path: '/api/v1/tickets/',
            setupRequest: (req, context) => {
              const tk = free.shift() ?? p1.putTickets[n % p1.putTickets.length];
              context.ticket = tk;
              // The reply is read for its new version, and autocannon hands it over as text: asked
              // for uncompressed (compressing one ticket's ~2 KB costs the server microseconds).
              const headers = { ...req.headers, 'accept-encoding': 'identity' };
              return { ...req, headers, body: JSON.stringify({ ticket: { id: tk.id, version: tk.version, description: `bench edit ${++n}` } }) };
            },
            onResponse: (status, body, context) => {
              const tk = context.ticket as { id: number; version: number };
              if (status === 200) {
                try {
                  tk.version = (JSON.parse(body) as { ticket: { version: number } }).ticket.version;
                } catch {
                  // keep the old version: the next save answers 409 and shows up as non-2xx
                }
              }
              free.push(tk);
            },
          },
        ],
      });
      res.load['PUT /api/v1/tickets/'] = withSql(fig, p1.sql['PUT /api/v1/tickets/']);
    } else {
      res.load['PUT /api/v1/tickets/'] = null;
      res.notes.push(`PUT /api/v1/tickets/: tickets routes answer ${probe.status} — not load-tested`);
    }
    const loadMB = rss.peak();

    // Import of the workbook through PUT /jobs/ with ticketsFile, health sampled meanwhile.
    rss.reset();
    res.importFig = await importBench(origin, token, m, p1);
    const importMB = rss.peak();
    res.rss = { loadMB, importMB, hwmMB: memoryOf(server.pid)?.hwmMB ?? NaN };

    // Browser.
    if (!args['skip-browser'] && process.env.BENCH_WEB_OK === '1') {
      log('browser: headless Chromium');
      res.browser = await measureBrowser({ origin, token, bigJobId: m.bigJobId, runs: QUICK ? 2 : 5, timeBudgetMs: 180_000, log });
      res.notes.push(...res.browser.notes);
      log('browser: the job map');
      try {
        res.map = await measureMap({ origin, token, bigJobId: m.bigJobId, runs: QUICK ? 2 : 5, timeBudgetMs: 180_000, log });
        res.notes.push(...res.map.notes);
      } catch (e) {
        res.notes.push(`map: ${(e as Error).message.split('\n')[0]}`);
      }
      const foreman = await http(origin, 'POST', '/api/v1/crew/login', undefined, { email: BENCH_FOREMAN, password: BENCH_PASSWORD });
      if (foreman.status === 200) {
        log('browser: phone load figures (CPU 4× slower)');
        try {
          res.vitals = await measureVitals({ origin, token, jobId: m.bigJobId, workToken: foreman.json.token as string, runs: QUICK ? 2 : 3, timeBudgetMs: 300_000, log });
          res.notes.push(...res.vitals.notes);
        } catch (e) {
          res.notes.push(`vitals: ${(e as Error).message.split('\n')[0]}`);
        }
        log(`browser: field mode as ${BENCH_FOREMAN}`);
        try {
          res.field = await measureField({
            origin,
            relayPort: PORT === undefined ? undefined : PORT + 1,
            token: foreman.json.token as string,
            checkToken: token,
            visits: FIELD_VISITS,
            syncRuns: FIELD_SYNCS,
            timeBudgetMs: QUICK ? 240_000 : 600_000,
            log,
          });
          res.notes.push(...res.field.notes);
        } catch (e) {
          res.notes.push(`field mode: ${(e as Error).message.split('\n')[0]}`);
        }
      } else res.notes.push(`field mode: sign-in as ${BENCH_FOREMAN} failed (${foreman.status}): not measured`);
    }
  } finally {
    rss.stop();
    await server.stop();
    if (server.child.exitCode && server.child.exitCode !== 0) res.notes.push(`server exited ${server.child.exitCode}: ${server.output().slice(-300)}`);
  }
}


async function importBench(origin: string, token: string, m: Manifest, p1: Phase1): Promise<DbResults['importFig']> {
  const runs = await timeImports(origin, token, m, QUICK ? 1 : RUNS, log);
  return runs && importFigures(runs, m, p1.exceljsSeconds);
}
