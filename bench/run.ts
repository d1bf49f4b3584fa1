/**
 * `npm run bench` (issue 6): one table of medians over repeated runs, printed and written to
 * docs/benchmarks.md with the date, machine and commit, each budget marked met / not met.
 *
 *   npm run bench                       PGlite (and PostgreSQL too when BENCH_DATABASE_URL is set)
 *   npm run bench -- --db postgres      only one of them (pglite | postgres)
 *   npm run bench -- --quick            smaller data, shorter runs (a minute or two)
 *   npm run bench -- --scale large      PostgreSQL only: the budgets of docs/product/scale.md §3 on
 *                                       the ten-year data (bench:data -- --scale large); writes its
 *                                       own section of docs/benchmarks.md and keeps the rest
 *                                       --only jobs,search,dashboard,work,production,job,exports,invoice picks
 *                                       routes (default all; the dashboard alone takes minutes)
 *   options: --runs N (load-test repeats, default 3) --duration S (seconds per load run, 5)
 *            --skip-browser --no-build --regen (make the data again) --no-write (no docs/benchmarks.md)
 *            --port P (port of the servers the bench starts, one at a time; default: a free one)
 *
 * Data comes from `npm run bench:data` (made here when missing); each run works on a fresh copy.
 * Phases per database:
 *  1. in process (buildApp + app.inject on the run copy): SQL statements per GET /jobs/{id} at
 *     10/100/N tickets (drizzle's logger, queryStats), the bare SQL of each load-tested route
 *     replayed on the driver, CSV export (buildExportCsv), the map exports (GET /jobs/{id}/geojson
 *     and /kml, request to last byte), and exceljs reading the workbook alone;
 *  2. the real server as a child process (node --import tsx src/server/main.ts), peak RSS from
 *     /proc: autocannon with 10 connections, then the workbook import through PUT /jobs/ with
 *     ticketsFile while GET /api/v1/health is sampled;
 *  3. headless Chromium against that server: the job page (bench/lib/browser.ts), then field mode
 *     signed in as a foreman: My Work on slow 3G and offline, a photo's resize, 50 notes synced
 *     (bench/lib/field.ts).
 * Every loop is bounded in count and time; all traffic goes to 127.0.0.1.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { and, asc, eq, sql as sqlText } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { openDatabase, queryStats } from '../src/server/db/client';
import { tickets, units, users } from '../src/server/db/schema/index';
import { hashPassword } from '../src/server/modules/auth/passwords';
import { ROOT, memoryOf, rssSampler, startServer, type ServerProcess } from '../src/server/test/server-process';
import { buildExportCsv, exportProblems } from '../src/shared/export';
import type { Job } from '../src/shared/jobs.schemas';
import type { Ticket } from '../src/shared/tickets.schemas';
import { generateData } from './data';
import { measureBrowser, type BrowserFigures } from './lib/browser';
import { measureField, type FieldFigures } from './lib/field';
import { measureSaveHistory, timeImportEntries, type HistoryFigures } from './lib/history';
import { measureInvoice, type InvoiceFigures } from './lib/invoices';
import autocannon, { type RequestSpec, unreadBodiesSkipped } from './lib/load-client';
import { measureMap, type MapFigures } from './lib/map';
import { CPU_SLOWDOWN, measureVitals, type VitalsFigures } from './lib/vitals';
import {
  BENCH_FOREMAN,
  BENCH_PASSWORD,
  benchTarget,
  dropRun,
  http,
  serverEnv,
  median,
  parseArgs,
  percentile,
  prepareRun,
  readManifest,
  repeat,
  round,
  type Kind,
  type Manifest,
  type Target,
} from './lib/common';
import { exceljsAloneSeconds, importFigures, timeImports, type ImportFigures } from './lib/import';
import { openRunInProcess } from './lib/in-process';
import { capture, replayOnce, replayUnderLoad, type Statement } from './lib/sql';

const CONNECTIONS = 10;
const args = parseArgs(process.argv.slice(2));
const QUICK = Boolean(args.quick);
const RUNS = Math.min(10, Math.max(1, Number(args.runs ?? (QUICK ? 2 : 3))));
const DURATION = Math.min(60, Math.max(1, Number(args.duration ?? (QUICK ? 3 : 5))));
const PORT = args.port === undefined ? undefined : Number(args.port);
if (PORT !== undefined && !(Number.isInteger(PORT) && PORT > 0 && PORT < 65536)) throw new Error('--port must be a TCP port number');
/** Field mode: repeat visits and offline reloads of My Work; syncs of 50 queued notes. */
const FIELD_VISITS = QUICK ? 2 : 5;
const FIELD_SYNCS = QUICK ? 1 : 3;
const log = (m: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${m}`);

// ---------------------------------------------------------------------------------------------
// Results

interface LoadFigures {
  p50: number;
  p99: number;
  rps: number;
  non2xx: number;
  errors: number;
  requests: number;
  /** p50 of one client alone. */
  singleP50: number;
  runs: number;
  mode: string;
  /** Bare SQL: one replay at a time, and at the same concurrency as the load test. */
  sqlSingle: number | null;
  sqlP50: number | null;
  ratio: number | null;
  note?: string;
}
/** Statements of GET /jobs/{id}: job unchanged since the last read / changed (reply rebuilt). */
type StatementCounts = Record<string, { warm: number; cold: number } | null>;
/** The big job's page read right after one of its tickets was saved: the kept reply is rebuilt (issue 17). */
const COLD_ROUTE = 'GET /api/v1/jobs/{big job}, rebuilt';
/** Rounds of "save one ticket, then read the big job's page": alone, then with CONNECTIONS readers at once. */
const REBUILT_ROUNDS = { one: QUICK ? 8 : 20, many: QUICK ? 2 : 5 };
/** The big job's production (docs/product/billing.md §3): computeProduction over all its tasks, read in one statement. */
const PRODUCTION_ROUTE = 'GET /api/v1/jobs/{big job}/production';

interface DbResults {
  kind: Kind;
  manifest: Manifest;
  statements: StatementCounts;
  load: Record<string, LoadFigures | null>;
  importFig: ImportFigures | null;
  exportMs: Record<string, number> | null;
  mapExport: MapExportFigures | null;
  /** An invoice of ~5,000 lines: preview, create, XLSX, PDF (bench/lib/invoices.ts). */
  invoice?: InvoiceFigures | null;
  /** What recording the history costs (issue 30, decision 044). */
  history?: HistoryFigures | null;
  /** The job map in the browser (bench/lib/map.ts). */
  map?: MapFigures | null;
  /** Lighthouse's mobile load figures: the job page's blocking time, /work's layout shift (bench/lib/vitals.ts). */
  vitals?: VitalsFigures | null;
  rss: { loadMB: number; importMB: number; hwmMB: number } | null;
  browser: BrowserFigures | null;
  field: FieldFigures | null;
  notes: string[];
  seconds: number;
}

// ---------------------------------------------------------------------------------------------
// Helpers

function newestMtime(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return latest;
}

/** Builds the web app into dist/web when missing or older than its sources (as `npm start` does). */
function ensureWebBuilt(notes: string[]): boolean {
  const built = path.join(ROOT, 'dist/web/index.html');
  const sources = Math.max(newestMtime(path.join(ROOT, 'src/web')), newestMtime(path.join(ROOT, 'src/shared')));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return true;
  if (args['no-build']) {
    notes.push('web build is older than its sources (--no-build): browser figures are of the old build');
    return existsSync(built);
  }
  log('building the web app (vite build)…');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
    timeout: 300_000,
  });
  if (r.status !== 0) {
    notes.push('vite build failed: browser figures skipped');
    return false;
  }
  return true;
}

/** Waits until the server has worked off what a load run left in flight (health queues behind it). */
async function drain(origin: string) {
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
const LOAD_BUDGET_MS = QUICK ? 60_000 : 120_000;
async function loadTest(
  origin: string,
  opts: { method: string; path: string; token: string; requests?: RequestSpec[]; between?: () => Promise<void> },
): Promise<Omit<LoadFigures, 'sqlSingle' | 'sqlP50' | 'ratio'>> {
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

// ---------------------------------------------------------------------------------------------
// Phase 1: in process

/** The big job's map exports in process: median ms of GeoJSON and KML, points, statements per request. */
interface MapExportFigures {
  geojsonMs: number;
  kmlMs: number;
  features: number;
  tickets: number;
  statements: number;
}

interface Phase1 {
  statements: StatementCounts;
  sql: Record<string, { single: number; p50: number } | null>;
  exportMs: Record<string, number> | null;
  mapExport: MapExportFigures | null;
  invoice: InvoiceFigures | null;
  exceljsSeconds: number;
  putTickets: { id: number; version: number }[];
  history: HistoryFigures | null;
  notes: string[];
}

async function phase1(t: Target, m: Manifest): Promise<Phase1> {
  const notes: string[] = [];
  // Data made by an older commit gets this commit's migrations, as the server would apply them.
  const { database, ctx } = await openRunInProcess(t);
  const app = await buildApp({ ...ctx, logger: false });
  await app.ready();
  try {
    const login = await app.inject({ method: 'POST', url: '/api/v1/crew/login', payload: { email: m.adminEmail, password: BENCH_PASSWORD } });
    if (login.statusCode !== 200) throw new Error(`bench sign-in failed: ${login.statusCode} ${login.body}`);
    // Crew members are created without a password (they get an invitation): the foreman whose
    // My Work the field figures measure gets the bench's, on this run's copy of the data.
    await ctx.db
      .update(users)
      .set({ passwordHash: await hashPassword(BENCH_PASSWORD) })
      .where(and(eq(users.companyId, m.companyId), eq(users.email, BENCH_FOREMAN)));
    const token = login.json().token as string;
    // Prices on every other unit of the library (this run's copy): production then does its
    // money arithmetic for the priced units and flags the rest, as a real library is half filled.
    await ctx.db
      .update(units)
      .set({ unitPrice: sqlText`((${units.id} % 40) + 1) * 1.25` })
      .where(and(eq(units.companyId, m.companyId), sqlText`${units.id} % 2 = 0`));
    const inject = (method: 'GET' | 'PUT', url: string, payload?: unknown) =>
      app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload: payload as object } : {}) });
    // A ticket of the job changed as a save changes it (a new row version): the next read rebuilds.
    const touchTicketOf = async (jobId: number) => {
      const [tk] = await ctx.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.jobId, jobId)).orderBy(asc(tickets.id)).limit(1);
      if (tk) await ctx.db.update(tickets).set({ description: sqlText`${tickets.description}` }).where(eq(tickets.id, tk.id));
    };

    // SQL statements per GET /jobs/{id} (session check included), after one warm-up request.
    const statements: StatementCounts = {};
    const count = async (url: string, before?: () => Promise<void>) => {
      await inject('GET', url);
      await before?.();
      const start = queryStats.count;
      const res = await inject('GET', url);
      if (res.statusCode !== 200) notes.push(`GET ${url}: ${res.statusCode} (route missing?)`);
      return res.statusCode === 200 ? queryStats.count - start : null;
    };
    for (const [size, jobId] of Object.entries(m.sizedJobs)) {
      const warm = await count(`/api/v1/jobs/${jobId}`);
      const cold = await count(`/api/v1/jobs/${jobId}`, () => touchTicketOf(jobId));
      statements[size] = warm == null || cold == null ? null : { warm, cold };
    }

    // The bare SQL of each load-tested route.
    const sql: Phase1['sql'] = {};
    const sqlTime = async (name: string, perWorker: Statement[][], write: boolean) => {
      sql[name] = null;
      if (perWorker.length === 0 || perWorker[0].length === 0) return;
      try {
        const singles = await repeat(QUICK ? 5 : 9, 30_000, () => replayOnce(database.db, database.kind, perWorker[0], { write }));
        const loaded = await replayUnderLoad(database.db, database.kind, perWorker, { write, ms: DURATION * 1000, maxIterations: 5000 });
        sql[name] = { single: median(singles), p50: loaded.p50 };
      } catch (e) {
        notes.push(`${name}: bare SQL replay failed: ${(e as Error).message.split('\n')[0]}`);
      }
    };

    // PUT /tickets/: one ticket per connection; each save captured, then the ticket put back as
    // it was (version, description) so that replays and the load test meet the same state.
    const rows = await ctx.db
      .select({ id: tickets.id, version: tickets.version, description: tickets.description })
      .from(tickets)
      .where(and(eq(tickets.companyId, m.companyId), eq(tickets.jobId, m.bigJobId)))
      .orderBy(asc(tickets.id))
      .limit(CONNECTIONS * 2);
    const perWorker: Statement[][] = [];
    for (const r of rows.slice(0, CONNECTIONS)) {
      const body = { ticket: { id: r.id, version: r.version, description: `bench edit of ticket ${r.id}` } };
      const { result, statements: st } = await capture(() => inject('PUT', '/api/v1/tickets/', body), database.db);
      await ctx.db.update(tickets).set({ version: r.version, description: r.description }).where(eq(tickets.id, r.id));
      if (result.statusCode !== 200) {
        notes.push(`PUT /api/v1/tickets/: ${result.statusCode} in process (${result.body.slice(0, 120)}): no bare SQL figure`);
        break;
      }
      perWorker.push(st);
    }
    await sqlTime('PUT /api/v1/tickets/', perWorker, true);

    // CSV export of the big job: what the Export button does (check, then build), in process.
    let exportMs: Record<string, number> | null = null;
    try {
      // As the Export modal does: the job, then its full tickets (GET /jobs/tickets/{id}).
      const jobRes = await inject('GET', `/api/v1/jobs/${m.bigJobId}`);
      const ticketsRes = await inject('GET', `/api/v1/jobs/tickets/${m.bigJobId}`);
      if (jobRes.statusCode !== 200 || ticketsRes.statusCode !== 200) throw new Error(`GET /jobs/{id}: ${jobRes.statusCode}, tickets ${ticketsRes.statusCode}`);
      const job = { ...(jobRes.json() as Job), tickets: ticketsRes.json() as Ticket[] };
      const run = (option: 1 | 2) => {
        const problem = exportProblems(job);
        if (problem) throw new Error(`export refused: ${problem}`);
        return buildExportCsv(job, job.tickets, option, job.company_time_zone);
      };
      exportMs = {};
      for (const option of [1, 2] as const) {
        run(option); // warm-up
        const times = await repeat(QUICK ? 3 : 7, 30_000, async () => {
          const t0 = performance.now();
          run(option);
          return performance.now() - t0;
        });
        exportMs[`option ${option}`] = median(times);
      }
    } catch (e) {
      notes.push(`export: ${(e as Error).message}`);
    }

    // The map exports of the big job (docs/product/map.md §5): request to last byte, in process.
    let mapExport: MapExportFigures | null = null;
    try {
      const url = (kind: string) => `/api/v1/jobs/${m.bigJobId}/${kind}`;
      const first = await inject('GET', url('geojson')); // warm-up
      if (first.statusCode !== 200) throw new Error(`GET /jobs/{id}/geojson: ${first.statusCode}`);
      const features = (JSON.parse(first.body) as { features: unknown[] }).features.length;
      const before = queryStats.count;
      await inject('GET', url('geojson'));
      const statementCount = queryStats.count - before;
      const timeOf = (kind: string) =>
        repeat(QUICK ? 3 : 9, 30_000, async () => {
          const t0 = performance.now();
          const res = await inject('GET', url(kind));
          if (res.statusCode !== 200) throw new Error(`GET /jobs/{id}/${kind}: ${res.statusCode}`);
          return performance.now() - t0;
        });
      await inject('GET', url('kml')); // warm-up
      mapExport = { geojsonMs: median(await timeOf('geojson')), kmlMs: median(await timeOf('kml')), features, tickets: m.bigJobTickets, statements: statementCount };
    } catch (e) {
      notes.push(`map export: ${(e as Error).message}`);
    }

    // An invoice of ~5,000 lines of the big job (docs/product/billing.md §4), undone after each run.
    let invoice: InvoiceFigures | null = null;
    try {
      invoice = await measureInvoice({
        db: ctx.db,
        inject: (method, url, payload) =>
          app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload: payload as object } : {}) }),
        companyId: m.companyId,
        jobId: m.bigJobId,
        targetLines: QUICK ? 1000 : 5000,
        runs: QUICK ? 1 : 3,
        timeBudgetMs: 120_000,
      });
    } catch (e) {
      notes.push(`invoice: ${(e as Error).message}`);
    }

    let history: HistoryFigures | null = null;
    try {
      // The save here; the import's entries after phase 2, over the tickets its import wrote
      // (importEntriesAfter). `npm run bench:history` times both in process in one short run.
      history = { ...(await measureSaveHistory(ctx, inject, m, QUICK ? 6 : 12)), importEntriesMs: null, importTickets: null, importMs: null };
    } catch (e) {
      notes.push(`history: ${(e as Error).message}`);
    }

    // The bare SQL of the read routes, replayed last in this phase: after every write above (the
    // PUT replays' rolled-back saves, the invoice billed and undone, the history's saves), which
    // leave the big job's ticket rows in new versions on other pages (and, on PGlite, which never
    // vacuums, their dead versions in place). The load tests of phase 2 read the database in that
    // state, so the route and its bare SQL must both meet it: replayed before those writes, the job
    // page's route ÷ SQL compared two states of the database, not the route's own cost.
    for (const [name, url, before] of [
      ['GET /api/v1/jobs', '/api/v1/jobs'],
      ['GET /api/v1/jobs/{big job}', `/api/v1/jobs/${m.bigJobId}`],
      // The statements of a rebuild after one ticket changed (replayed, they read the same rows).
      [COLD_ROUTE, `/api/v1/jobs/${m.bigJobId}`, () => touchTicketOf(m.bigJobId)],
      [PRODUCTION_ROUTE, `/api/v1/jobs/${m.bigJobId}/production`],
    ] as const) {
      await inject('GET', url);
      await before?.();
      const { result, statements: st } = await capture(() => inject('GET', url), database.db);
      if (result.statusCode !== 200) {
        notes.push(`${name}: ${result.statusCode} in process: no bare SQL figure`);
        sql[name] = null;
        continue;
      }
      await sqlTime(name, Array.from({ length: CONNECTIONS }, () => st), false);
    }

    // exceljs reading the same workbook alone (what the import can at best approach).
    const exceljsSeconds = await exceljsAloneSeconds(m);

    return {
      statements,
      sql,
      exportMs,
      mapExport,
      invoice,
      exceljsSeconds,
      putTickets: rows.map((r) => ({ id: r.id, version: r.version })),
      history,
      notes,
    };
  } finally {
    await app.close();
    await database.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Phase 2 + 3: the real server

/**
 * The big job's page read right after one of its tickets was saved (PUT /tickets/, as a crew
 * does), on the running server with its reply cache: alone (REBUILT_ROUNDS.one rounds), then with
 * CONNECTIONS clients reading at once after each save (they share one rebuild). Each read is timed
 * to its last byte, compressed as a browser asks. The saved tickets' versions are kept in
 * p1.putTickets for the ticket-save load test that follows.
 */
/** Each ticket's current version from the server, so the next PUT of it is not stale. */
async function rereadVersions(origin: string, token: string, tickets: { id: number; version: number }[]) {
  for (const tk of tickets) {
    const r = await http(origin, 'GET', `/api/v1/tickets/${tk.id}`, token);
    if (r.status === 200) tk.version = (r.json.ticket ?? r.json).version;
  }
}

async function rebuiltLoad(origin: string, token: string, m: Manifest, p1: Phase1): Promise<Omit<LoadFigures, 'sqlSingle' | 'sqlP50' | 'ratio'>> {
  const url = `${origin}/api/v1/jobs/${m.bigJobId}`;
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json', 'accept-encoding': 'gzip, deflate, br' };
  let n = 0;
  let non2xx = 0;
  const save = async () => {
    const tk = p1.putTickets[n % p1.putTickets.length];
    const r = await http(origin, 'PUT', '/api/v1/tickets/', token, { ticket: { id: tk.id, version: tk.version, description: `bench rebuild ${++n}` } });
    if (r.status !== 200) throw new Error(`PUT /tickets/ before a rebuild: ${r.status}`);
    tk.version = r.json.ticket.version;
  };
  // Read from the socket, as autocannon does for the other rows: fetch would also time its own
  // decompression of the body.
  const read = () =>
    new Promise<number>((resolve, reject) => {
      const t0 = performance.now();
      const req = httpGet(url, { headers }, (res) => {
        if (res.statusCode !== 200) non2xx++;
        res.on('data', () => {});
        res.on('end', () => resolve(performance.now() - t0));
      });
      req.on('error', reject);
      req.setTimeout(300_000, () => req.destroy(new Error('GET timed out')));
    });
  // Phase 1's measurements after it read these tickets (the history saves, the invoice's billing
  // and its undo) changed their versions: read them again, or every save is a 409.
  await rereadVersions(origin, token, p1.putTickets);
  await read(); // warm-up
  const one: number[] = [];
  for (let i = 0; i < REBUILT_ROUNDS.one; i++) {
    await save();
    one.push(await read());
  }
  const many: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < REBUILT_ROUNDS.many; i++) {
    await save();
    many.push(...(await Promise.all(Array.from({ length: CONNECTIONS }, read))));
  }
  return {
    p50: median(many),
    p99: percentile(many, 99),
    rps: many.length / ((performance.now() - t0) / 1000),
    non2xx,
    errors: 0,
    requests: one.length + many.length,
    singleP50: median(one),
    runs: REBUILT_ROUNDS.many,
    mode: `${REBUILT_ROUNDS.one} saves each read alone; ${REBUILT_ROUNDS.many} saves each read by ${CONNECTIONS}`,
  };
}

async function phase2(t: Target, m: Manifest, p1: Phase1, res: DbResults) {
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

function withSql(fig: Omit<LoadFigures, 'sqlSingle' | 'sqlP50' | 'ratio'>, sql: { single: number; p50: number } | null | undefined): LoadFigures {
  return { ...fig, sqlSingle: sql?.single ?? null, sqlP50: sql?.p50 ?? null, ratio: sql ? fig.p50 / Math.max(sql.p50, 0.01) : null };
}

async function importBench(origin: string, token: string, m: Manifest, p1: Phase1): Promise<DbResults['importFig']> {
  const runs = await timeImports(origin, token, m, QUICK ? 1 : RUNS, log);
  return runs && importFigures(runs, m, p1.exceljsSeconds);
}

/**
 * The import's history part, once the server of phase 2 has stopped: its one INSERT … SELECT of
 * per-ticket entries over the tickets the last import wrote, timed alone (rolled back), so the
 * row compares the import with its own entries.
 */
async function importEntriesAfter(t: Target, m: Manifest, jobId: number, h: HistoryFigures) {
  const database = await openDatabase({ databaseUrl: t.runUrl, pgliteDir: path.join(t.runDir, 'db') });
  try {
    const { db } = database;
    const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, m.adminEmail));
    h.importTickets = (await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.jobId, jobId))).length;
    h.importEntriesMs = median(await repeat(3, 120_000, () => timeImportEntries(db, m.companyId, admin.id, jobId)));
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------------------------------------
// One database

async function benchDatabase(kind: Kind): Promise<DbResults> {
  const started = performance.now();
  const t = benchTarget(kind, QUICK);
  let m = readManifest(t);
  if (!m || args.regen || !existsSync(m.workbook.path)) {
    log(`${kind}: no bench data yet — making it (npm run bench:data${QUICK ? ' -- --quick' : ''})`);
    m = await generateData(t, QUICK ? { jobs: 500, bigJobTickets: 1000, workbookRows: 2000, log } : { jobs: 5000, bigJobTickets: 5000, workbookRows: 10_000, log });
  }
  const res: DbResults = { kind, manifest: m, statements: {}, load: {}, importFig: null, exportMs: null, mapExport: null, rss: null, browser: null, field: null, notes: [], seconds: 0 };
  await prepareRun(t);
  try {
    log(`${kind}: phase 1 (in process)`);
    const p1 = await phase1(t, m);
    res.statements = p1.statements;
    res.exportMs = p1.exportMs;
    res.mapExport = p1.mapExport;
    res.invoice = p1.invoice;
    res.history = p1.history;
    res.notes.push(...p1.notes);
    log(`${kind}: phase 2 (server process)`);
    await phase2(t, m, p1, res);
    if (res.history && res.importFig?.lastJobId) {
      await importEntriesAfter(t, m, res.importFig.lastJobId, res.history).catch((e: unknown) => res.notes.push(`history of the import: ${(e as Error).message}`));
    }
  } catch (e) {
    res.notes.push(`aborted: ${(e as Error).message.split('\n')[0]}`);
    console.error(e);
  } finally {
    await dropRun(t).catch(() => {});
  }
  res.seconds = (performance.now() - started) / 1000;
  return res;
}

// ---------------------------------------------------------------------------------------------
// --scale large (issue 33): the budgets of docs/product/scale.md §3 at the size of §1

/** Where the large figures sit in docs/benchmarks.md: a run of either scale keeps the other's. */
const LARGE_START = '<!-- bench --scale large: start -->';
const LARGE_END = '<!-- bench --scale large: end -->';

interface LargeRoute {
  /** What `--only` names it by. */
  key: string;
  name: string;
  url: string;
  /** p50 budget at 10 clients, ms. */
  budget: number;
  as: 'admin' | 'foreman';
  /** A reply that is not what the contract answers (e.g. the unpaged list for ?limit=): why it is skipped. */
  check?: (json: unknown) => string | null;
}

/** Exports and an invoice of the 5,000-ticket job at the §1 size, one client in process, ms (medians). */
interface LargeJobFiles {
  /** GET /jobs/{id}/export.xlsx?option=2 and ?option=units; GET /jobs/{id}/geojson. */
  xlsxAllMs: number | null;
  xlsxUnitsMs: number | null;
  geojsonMs: number | null;
  invoice: InvoiceFigures | null;
}

interface LargeFigures {
  manifest: Manifest;
  files: LargeJobFiles;
  foreman: { email: string; open: number };
  load: Record<string, LoadFigures | null>;
  bytes: Record<string, number>;
  alone: Record<string, number>;
  rssMB: number | null;
  notes: string[];
}

/** A route slower than this alone is not load-tested at 10 clients (it would take many minutes). */
const SLOW_ALONE_MS = 5000;

const paged = (json: unknown) =>
  json && typeof json === 'object' && !Array.isArray(json) && 'jobs' in json && 'next_cursor' in json ? null : 'the reply is not the paged list (GET /jobs?limit=, decision 053): not measured';

const LARGE_KEYS = ['jobs', 'search', 'dashboard', 'work', 'production', 'job', 'exports', 'invoice'];
/** `--only a,b`: the large routes to measure (all when absent). */
function largeOnly(): Set<string> | null {
  if (args.only === undefined) return null;
  const keys = String(args.only).split(',').map((k) => k.trim()).filter(Boolean);
  const bad = keys.filter((k) => !LARGE_KEYS.includes(k));
  if (bad.length || keys.length === 0) throw new Error(`--only takes some of ${LARGE_KEYS.join(',')}${bad.length ? `, not ${bad.join(',')}` : ''}`);
  return new Set(keys);
}

async function benchLarge(): Promise<LargeFigures> {
  const only = largeOnly();
  const t = benchTarget('postgres', false, true);
  const m = readManifest(t);
  if (!m) throw new Error('no large data: run `npm run bench:data -- --scale large` first (BENCH_DATABASE_URL set)');
  const notes: string[] = [];
  log('large: a fresh copy of the data');
  await prepareRun(t);
  const { database, ctx } = await openRunInProcess(t);
  await database.db.execute(sqlText`ANALYZE`);
  // The foreman of §3's row: the one whose open tickets are nearest 2,000.
  const [fm] = (
    (await database.db.execute(sqlText`
      select u.email, count(*)::int as open from tickets t join jobs j on j.id = t.job_id and j.company_id = t.company_id
      join users u on u.id = j.foreman_id where t.company_id = ${m.companyId} and t.actual_completion_date is null
      group by u.email order by abs(count(*) - 2000), u.email limit 1`)) as unknown as { rows: { email: string; open: number }[] }
  ).rows;
  await database.db.update(users).set({ passwordHash: await hashPassword(BENCH_PASSWORD) }).where(and(eq(users.companyId, m.companyId), eq(users.email, fm.email)));
  const routes: LargeRoute[] = (
    [
      { key: 'jobs', name: 'Jobs page: GET /jobs?limit=50', url: '/api/v1/jobs?limit=50', budget: 100, as: 'admin', check: paged },
      { key: 'search', name: 'Search: GET /jobs?limit=50&q=0999', url: '/api/v1/jobs?limit=50&q=0999', budget: 200, as: 'admin', check: paged },
      { key: 'dashboard', name: 'GET /dashboard', url: '/api/v1/dashboard', budget: 300, as: 'admin' },
      { key: 'work', name: `My Work of a foreman with ${fm.open.toLocaleString('en-US')} open tickets: GET /work`, url: '/api/v1/work', budget: 200, as: 'foreman' },
      { key: 'production', name: `Production of a ${m.bigJobTickets.toLocaleString('en-US')}-ticket job`, url: `/api/v1/jobs/${m.bigJobId}/production`, budget: 100, as: 'admin' },
      { key: 'job', name: `Job page of a ${m.bigJobTickets.toLocaleString('en-US')}-ticket job`, url: `/api/v1/jobs/${m.bigJobId}`, budget: 150, as: 'admin' },
    ] satisfies LargeRoute[]
  ).filter((r) => !only || only.has(r.key));
  if (only) notes.push(`only ${[...only].join(', ')} measured in this run (--only)`);
  // In process: each route's statements captured once, replayed on the driver.
  const sqlOf: Record<string, { single: number; p50: number } | null> = {};
  const skip = new Set<string>();
  const bytes: Record<string, number> = {};
  /** Routes too slow for a load test: their one request alone, ms. */
  const alone: Record<string, number> = {};
  const files: LargeJobFiles = { xlsxAllMs: null, xlsxUnitsMs: null, geojsonMs: null, invoice: null };
  {
    const app = await buildApp({ ...ctx, logger: false });
    await app.ready();
    try {
      const tokenOf = async (email: string) => {
        const r = await app.inject({ method: 'POST', url: '/api/v1/crew/login', payload: { email, password: BENCH_PASSWORD } });
        if (r.statusCode !== 200) throw new Error(`sign-in of ${email}: ${r.statusCode}`);
        return r.json().token as string;
      };
      const tokens = { admin: await tokenOf(m.adminEmail), foreman: await tokenOf(fm.email) };
      for (const r of routes) {
        const get = () => app.inject({ method: 'GET', url: r.url, headers: { authorization: `Bearer ${tokens[r.as]}` } });
        log(`large, in process: ${r.name}`);
        let t0 = performance.now();
        const first = await get();
        let firstMs = performance.now() - t0;
        // The first request builds what the reply cache keeps (job page, production): timed again warm,
        // unless it was already too slow to wait for twice.
        if (first.statusCode === 200 && firstMs <= 60_000) {
          t0 = performance.now();
          await get();
          firstMs = performance.now() - t0;
        }
        const why = first.statusCode !== 200 ? `${first.statusCode} ${first.body.slice(0, 160)}: not measured` : r.check?.(first.json());
        if (why) {
          notes.push(`${r.name}: ${why}`);
          skip.add(r.name);
          continue;
        }
        bytes[r.name] = first.rawPayload.length;
        if (firstMs > SLOW_ALONE_MS) {
          // Ten clients would take many minutes and say nothing more: one request alone is the figure.
          alone[r.name] = firstMs;
          notes.push(`${r.name}: one request alone took ${round(firstMs / 1000, 1)} s in process: not load-tested`);
          continue;
        }
        const { result, statements: st } = await capture(get, database.db);
        if (result.statusCode !== 200) continue;
        try {
          const singles = await repeat(5, 30_000, () => replayOnce(database.db, database.kind, st, { write: false }));
          const loaded = await replayUnderLoad(database.db, database.kind, Array.from({ length: CONNECTIONS }, () => st), { write: false, ms: DURATION * 1000, maxIterations: 5000 });
          sqlOf[r.name] = { single: median(singles), p50: loaded.p50 };
        } catch (e) {
          notes.push(`${r.name}: bare SQL replay failed: ${(e as Error).message.split('\n')[0]}`);
        }
      }
      // Exports and an invoice of the big job (issue 33: "exports and invoices at that size"): bounded by
      // the job, so they must not grow with the company's ten years — one client, in process.
      const timed = async (url: string) => {
        const get = () => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tokens.admin}` } });
        const first = await get();
        if (first.statusCode !== 200) throw new Error(`GET ${url}: ${first.statusCode} ${first.body.slice(0, 160)}`);
        return median(await repeat(3, 60_000, async () => {
          const t0 = performance.now();
          await get();
          return performance.now() - t0;
        }));
      };
      if (!only || only.has('exports')) {
        log('large, in process: exports of the big job');
        try {
          files.xlsxAllMs = await timed(`/api/v1/jobs/${m.bigJobId}/export.xlsx?option=2`);
          files.xlsxUnitsMs = await timed(`/api/v1/jobs/${m.bigJobId}/export.xlsx?option=units`);
          files.geojsonMs = await timed(`/api/v1/jobs/${m.bigJobId}/geojson`);
        } catch (e) {
          notes.push(`exports: ${(e as Error).message}`);
        }
      }
    } finally {
      await app.close();
      await database.close();
    }
  }
  // The real server: 10 clients per route, peak RSS sampled throughout.
  const load: Record<string, LoadFigures | null> = {};
  let rssMB: number | null = null;
  // The run's copy of the data (2.3 GB) is dropped whatever happens below.
  try {
    const server = await startServer({ env: serverEnv(t), port: PORT, timeoutMs: 120_000 });
    const rss = rssSampler(server.pid, 100);
    try {
      await server.ready;
      const tokenOf = async (email: string) => {
        const r = await http(server.origin, 'POST', '/api/v1/crew/login', undefined, { email, password: BENCH_PASSWORD });
        if (r.status !== 200) throw new Error(`sign-in of ${email} on the server: ${r.status}`);
        return r.json.token as string;
      };
      const tokens = { admin: await tokenOf(m.adminEmail), foreman: await tokenOf(fm.email) };
      rss.reset();
      for (const r of routes) {
        if (skip.has(r.name) || alone[r.name] !== undefined) {
          load[r.name] = null;
          continue;
        }
        log(`large, load: ${r.name}`);
        load[r.name] = withSql(await loadTest(server.origin, { method: 'GET', path: r.url, token: tokens[r.as] }), sqlOf[r.name]);
      }
      rssMB = Math.max(rss.peak(), memoryOf(server.pid)?.hwmMB ?? 0);
    } finally {
      rss.stop();
      await server.stop();
    }
    // The invoice last, in process again: it writes to the big job (1,250 tickets billed, then put
    // back, three times), which leaves their rows in new versions on other pages. Measured before
    // the load tests, it made the job page and production read other pages than their bare SQL had
    // (replayed above, before it): route ÷ SQL ×2.2–×2.6 against ×1.1–×1.35 with both on one state.
    if (!only || only.has('invoice')) {
      const { database, ctx } = await openRunInProcess(t);
      const app = await buildApp({ ...ctx, logger: false });
      await app.ready();
      try {
        const login = await app.inject({ method: 'POST', url: '/api/v1/crew/login', payload: { email: m.adminEmail, password: BENCH_PASSWORD } });
        if (login.statusCode !== 200) throw new Error(`sign-in of ${m.adminEmail}: ${login.statusCode}`);
        const token = login.json().token as string;
        log('large, in process: an invoice of ~5,000 lines of the big job');
        files.invoice = await measureInvoice({
          db: database.db,
          inject: (method, url, payload) => app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload: payload as object } : {}) }),
          companyId: m.companyId,
          jobId: m.bigJobId,
          targetLines: 5000,
          runs: 3,
          timeBudgetMs: 180_000,
        });
      } catch (e) {
        notes.push(`invoice: ${(e as Error).message}`);
      } finally {
        await app.close();
        await database.close();
      }
    }
  } finally {
    await dropRun(t).catch(() => {});
  }
  return { manifest: m, files, foreman: fm, load, bytes, alone, rssMB, notes };
}

function renderLarge(f: LargeFigures, mach: ReturnType<typeof machine>, loadAfter: string): string {
  const m = f.manifest;
  const c = m.counts;
  const lines = [
    LARGE_START,
    '## Ten years of work: `npm run bench -- --scale large` (PostgreSQL)',
    '',
    `Data: \`npm run bench:data -- --scale large\` (bench/lib/large.ts, decision 054): ${c.jobs.toLocaleString('en-US')} jobs,`,
    `${c.tickets.toLocaleString('en-US')} tickets (${c.openTickets?.toLocaleString('en-US')} open), ${c.tasks.toLocaleString('en-US')} tasks, ${c.images?.toLocaleString('en-US')} photo rows,`,
    `${c.crew.toLocaleString('en-US')} crew, ${c.invoices?.toLocaleString('en-US')} invoices; built in ${m.seconds} s on ${m.createdAt.slice(0, 10)}. Each route: one client alone, then`,
    `${CONNECTIONS} clients (${RUNS} runs of ${DURATION} s, or of ${CONNECTIONS * 2} requests when one request is slow), replies compressed as a browser asks.`,
    `- date: ${mach.date}; machine: ${mach.cpus}, load average at start ${mach.load}, at end ${loadAfter}; commit ${mach.commit}`,
    '',
    '| Measure | PostgreSQL | Budget |',
    '| --- | --- | --- |',
    `| bench:data --scale large: time to build | ${round(m.seconds / 60, 1)} min — ${status(m.seconds < 900)} | < 15 min |`,
  ];
  for (const [name, fig] of Object.entries(f.load)) {
    const budget = /jobs\?limit=50&q/.test(name) || name.startsWith('Search') ? 200 : name.startsWith('Jobs page') ? 100 : name.includes('dashboard') ? 300 : name.startsWith('My Work') ? 200 : name.startsWith('Production') ? 100 : 150;
    if (!fig && f.alone[name] !== undefined) {
      lines.push(`| ${name} | 1 client alone, in process: ${ms(f.alone[name], 0)}${f.bytes[name] === undefined ? '' : `; reply ${round(f.bytes[name] / 1024, 1)} KB of JSON`} (${CONNECTIONS} clients not run) — not met | p50 < ${budget} ms |`);
      continue;
    }
    if (!fig) {
      lines.push(`| ${name}, ${CONNECTIONS} clients: p50 | not measured (see notes) | p50 < ${budget} ms |`);
      continue;
    }
    const size = f.bytes[name] === undefined ? '' : `; reply ${round(f.bytes[name] / 1024, 1)} KB of JSON`;
    lines.push(
      `| ${name}, ${CONNECTIONS} clients: p50 / p99 / req/s | ${ms(fig.p50, 0)} / ${ms(fig.p99, 0)} / ${round(fig.rps, 1)} (1 client: ${ms(fig.singleP50, 0)}; ${fig.mode}${size}${fig.non2xx ? `; ${fig.non2xx} non-2xx` : ''}) — ${status(fig.p50 < budget && fig.non2xx === 0)} | p50 < ${budget} ms |`,
    );
    lines.push(
      `|   bare SQL of that route: alone / p50 at ${CONNECTIONS} concurrent; route ÷ SQL | ${fig.sqlP50 == null ? 'not measured' : `${ms(fig.sqlSingle)} / ${ms(fig.sqlP50)}; ×${round(fig.ratio!, 2)} — ${status(fig.ratio! < 2)}`} | route ÷ SQL < 2 |`,
    );
  }
  // The everyday data's budgets for the same files (docs/product/scale.md §3): the ten years must not show.
  const fl = f.files;
  const measured = (v: number | null, budget: number) => (v == null ? 'not measured' : `${ms(v, 0)} — ${status(v < budget)}`);
  lines.push(
    `| Exports of the ${m.bigJobTickets.toLocaleString('en-US')}-ticket job, 1 client in process: export.xlsx option 2 / units; GeoJSON | ${measured(fl.xlsxAllMs, 2000)} / ${measured(fl.xlsxUnitsMs, 2000)}; ${measured(fl.geojsonMs, 300)} | xlsx < 2 s; GeoJSON < 300 ms |`,
  );
  const inv = fl.invoice;
  lines.push(
    `| Invoice of that job, 1 client in process: lines; preview / create / XLSX / PDF | ${inv ? `${inv.lines.toLocaleString('en-US')} lines of ${inv.tickets} tickets; ${ms(inv.previewMs, 0)} / ${ms(inv.createMs, 0)} — ${status(inv.createMs < 2000)} / ${ms(inv.xlsxMs, 0)} / ${ms(inv.pdfMs, 0)}` : 'not measured'} | create < 2 s |`,
  );
  lines.push(`| Server peak RSS during the large bench | ${f.rssMB == null ? 'not measured' : `${round(f.rssMB, 0)} MB — ${status(f.rssMB < 1024)}`} | < 1 GB |`);
  lines.push('', ...(f.notes.length ? ['Notes from this run:', '', ...f.notes.map((n) => `- ${n}`), ''] : []), LARGE_END);
  return lines.join('\n');
}

/** docs/benchmarks.md with its large section replaced (or kept, when `large` is undefined). */
function withLargeSection(md: string, large?: string): string {
  const path_ = path.join(ROOT, 'docs/benchmarks.md');
  const old = existsSync(path_) ? readFileSync(path_, 'utf8') : '';
  const a = old.indexOf(LARGE_START);
  const b = old.indexOf(LARGE_END);
  const kept = a >= 0 && b > a ? old.slice(a, b + LARGE_END.length) : '';
  const section = large ?? kept;
  const base = md.includes(LARGE_START) ? md.slice(0, md.indexOf(LARGE_START)).trimEnd() : md.trimEnd();
  return section ? `${base}\n\n${section}\n` : `${base}\n`;
}

// ---------------------------------------------------------------------------------------------
// Report

type Status = 'met' | 'not met' | 'n/a';
const ms = (v: number | null | undefined, d = 1) => (v == null || !Number.isFinite(v) ? '–' : `${round(v, d)} ms`);
const status = (ok: boolean | null): Status => (ok === null ? 'n/a' : ok ? 'met' : 'not met');

interface Row {
  measure: string;
  budget: string;
  cells: Record<string, { text: string; status?: Status }>;
}

function buildRows(all: DbResults[]): Row[] {
  const rows: Row[] = [];
  const row = (measure: string, budget: string, cell: (r: DbResults) => { text: string; status?: Status }) =>
    rows.push({ measure, budget, cells: Object.fromEntries(all.map((r) => [r.kind, cell(r)])) });

  for (const name of ['GET /api/v1/jobs', 'GET /api/v1/jobs/{big job}', COLD_ROUTE, PRODUCTION_ROUTE, 'PUT /api/v1/tickets/']) {
    const list = name === 'GET /api/v1/jobs';
    const big = name === 'GET /api/v1/jobs/{big job}';
    const rebuilt = name === COLD_ROUTE;
    // Issue 17's jobs list: p50 < 100 ms on PostgreSQL, < 300 ms on PGlite.
    const p50Budget = list ? 'p50 < 100 ms (PostgreSQL), < 300 ms (PGlite)' : big ? 'p50 < 150 ms (PostgreSQL)' : rebuilt ? '1 client < 150 ms (PGlite)' : '';
    row(`${name}, ${CONNECTIONS} clients: p50 / p99 / req/s`, p50Budget, (r) => {
      const f = r.load[name];
      if (!f) return { text: 'not measured' };
      const extra = f.non2xx || f.errors ? `; ${f.non2xx} non-2xx, ${f.errors} errors of ${f.requests}` : '';
      const budget = (): Status | undefined => {
        if (list) return status(f.p50 < (r.kind === 'postgres' ? 100 : 300));
        if (big) return r.kind === 'postgres' ? status(f.p50 < 150) : 'n/a';
        if (rebuilt) return r.kind === 'pglite' ? status(f.singleP50 < 150) : 'n/a';
        return undefined;
      };
      return { text: `${ms(f.p50, 0)} / ${ms(f.p99, 0)} / ${round(f.rps, 1)} (1 client: ${ms(f.singleP50, 0)}; ${f.mode}${extra})`, status: budget() };
    });
    row(`  bare SQL of that route: alone / p50 at ${CONNECTIONS} concurrent; route ÷ SQL`, list || big ? 'route ÷ SQL < 2' : '', (r) => {
      const f = r.load[name];
      if (!f || f.sqlP50 == null) return { text: 'not measured' };
      return { text: `${ms(f.sqlSingle)} / ${ms(f.sqlP50)}; ×${round(f.ratio!, 2)}`, status: list || big ? status(f.ratio! < 2) : undefined };
    });
  }
  const sizes = Object.keys(all[0]?.manifest.sizedJobs ?? {}).sort((a, b) => Number(a) - Number(b));
  row(`SQL statements per GET /jobs/{id} at ${sizes.join(' / ')} tickets: job unchanged; changed (rebuilt)`, 'flat (no N+1)', (r) => {
    const v = sizes.map((s) => r.statements[s]);
    if (v.some((x) => x == null)) return { text: 'not measured' };
    const warm = v.map((x) => x!.warm);
    const cold = v.map((x) => x!.cold);
    return { text: `${warm.join(' / ')}; ${cold.join(' / ')}`, status: status(new Set(warm).size === 1 && new Set(cold).size === 1) };
  });
  row(`First import after the server's start (${all[0]?.manifest.workbook.rows.toLocaleString('en-US')} rows): time; GET /health max during it`, '< 2 s, max < 100 ms', (r) => {
    const f = r.importFig?.first;
    if (!f) return { text: 'not measured' };
    return {
      text: `${round(f.seconds, 2)} s; ${ms(f.healthMaxMs, 0)}${f.healthFailures ? ` (${f.healthFailures} failed)` : ''}`,
      status: status(f.seconds < 2 && f.healthMaxMs < 100 && f.healthFailures === 0),
    };
  });
  row(`Import of the ${all[0]?.manifest.workbook.rows.toLocaleString('en-US')}-row workbook (PUT /jobs/ ticketsFile), the imports after the first`, '< 5 s, ≤ 2× exceljs read', (r) => {
    const f = r.importFig;
    if (!f) return { text: 'not measured' };
    const x = f.seconds / f.exceljsSeconds;
    return {
      text: `${round(f.seconds, 2)} s, ${round(f.rowsPerSecond, 0)} rows/s; exceljs alone ${round(f.exceljsSeconds, 2)} s (×${round(x, 2)})`,
      status: status(f.seconds < 5 && x <= 2),
    };
  });
  row('History: ticket save (PUT /tickets/, in process): whole / its history part; whole ÷ without', '≤ 1.2×', (r) => {
    const h = r.history;
    if (!h) return { text: 'not measured' };
    const x = h.saveMs / Math.max(0.1, h.saveMs - h.saveHistoryMs);
    return { text: `${round(h.saveMs, 1)} ms / ${round(h.saveHistoryMs, 1)} ms; ${round(x, 2)}×`, status: status(x <= 1.2) };
  });
  row(`History: the import's per-ticket entries (one INSERT … SELECT over the tickets an import wrote); import ÷ without`, '≤ 1.2×', (r) => {
    const h = r.history;
    if (!h || h.importEntriesMs == null || h.importTickets == null) return { text: 'not measured' };
    const importMs = (r.importFig?.seconds ?? 0) * 1000;
    const x = importMs > h.importEntriesMs ? importMs / (importMs - h.importEntriesMs) : null;
    return { text: `${round(h.importEntriesMs, 0)} ms for ${h.importTickets.toLocaleString('en-US')} tickets${x ? `; ${round(x, 2)}×` : ''}`, status: status(x === null ? null : x <= 1.2) };
  });
  row('GET /api/v1/health during the imports after the first: max / p99 (samples)', 'max < 100 ms', (r) => {
    const f = r.importFig;
    if (!f) return { text: 'not measured' };
    return {
      text: `${ms(f.healthMaxMs, 0)} / ${ms(f.healthP99Ms, 0)} (${f.healthSamples}${f.healthFailures ? `, ${f.healthFailures} failed` : ''})`,
      status: status(f.healthFailures === 0 && f.healthMaxMs < 100),
    };
  });
  row(`CSV export of the ${all[0]?.manifest.bigJobTickets.toLocaleString('en-US')}-ticket job (buildExportCsv): option 1 / 2`, '', (r) =>
    r.exportMs ? { text: `${ms(r.exportMs['option 1'], 0)} / ${ms(r.exportMs['option 2'], 0)}` } : { text: 'not measured' },
  );
  row(`Map export of the ${all[0]?.manifest.bigJobTickets.toLocaleString('en-US')}-ticket job (GET /jobs/{id}/geojson, /kml): GeoJSON / KML; points; statements`, 'GeoJSON < 300 ms', (r) => {
    const f = r.mapExport;
    if (!f) return { text: 'not measured' };
    return {
      text: `${ms(f.geojsonMs, 0)} / ${ms(f.kmlMs, 0)}; ${f.features} of ${f.tickets} tickets; ${f.statements} per request`,
      status: status(f.geojsonMs < 300),
    };
  });
  row('Invoice of the big job (POST /jobs/{id}/invoices, in process): lines; preview / create / XLSX / PDF', 'create < 2 s', (r) => {
    const f = r.invoice;
    if (!f) return { text: 'not measured' };
    return {
      text: `${f.lines.toLocaleString('en-US')} lines of ${f.tickets} tickets; ${ms(f.previewMs, 0)} / ${ms(f.createMs, 0)} / ${ms(f.xlsxMs, 0)} (${Math.round(f.xlsxBytes / 1024)} KB) / ${ms(f.pdfMs, 0)} (${Math.round(f.pdfBytes / 1024)} KB)`,
      status: status(f.createMs < 2000),
    };
  });
  row('Browser: navigation → ticket table of the big job visible', '< 1.5 s', (r) =>
    r.browser?.tableVisibleMs != null ? { text: `${ms(r.browser.tableVisibleMs, 0)} (${r.browser.tableVisibleHow})`, status: status(r.browser.tableVisibleMs < 1500) } : { text: 'not measured' },
  );
  row('Browser: re-sort of that table by a column', '< 100 ms', (r) =>
    r.browser?.resortMs != null ? { text: `${ms(r.browser.resortMs, 0)} (${r.browser.resortHow})`, status: status(r.browser.resortMs < 100) } : { text: 'not measured' },
  );
  row('Browser: navigation → map of the big job usable', '< 1.5 s', (r) =>
    r.map?.visibleMs != null ? { text: `${ms(r.map.visibleMs, 0)} (mark 'tickets-map-visible'; ${r.map.runs} loads)`, status: status(r.map.visibleMs < 1500) } : { text: 'not measured' },
  );
  row('Browser: frame time while panning and zooming that map: p95 / max', 'p95 < 33 ms', (r) =>
    r.map?.frameP95Ms != null
      ? {
          text: `${ms(r.map.frameP95Ms, 1)} / ${ms(r.map.frameMaxMs ?? NaN, 0)} (${r.map.frames} frames; ${r.map.longFrames} long animation frames > 50 ms)`,
          status: status(r.map.frameP95Ms < 33),
        }
      : { text: 'not measured' },
  );
  // Issue 27: Lighthouse's mobile run gave the job page 1,880 ms of blocking and /work a shift of 0.12–0.14.
  row(`Browser, phone (390 × 844, CPU ${CPU_SLOWDOWN}× slower): total blocking time of the big job's page`, '< 600 ms', (r) =>
    r.vitals?.jobTbtMs != null ? { text: `${ms(r.vitals.jobTbtMs, 0)} (${r.vitals.jobRuns} cold loads)`, status: status(r.vitals.jobTbtMs < 600) } : { text: 'not measured' },
  );
  row(`Browser, phone (390 × 844, CPU ${CPU_SLOWDOWN}× slower): cumulative layout shift of /work`, '< 0.05', (r) =>
    r.vitals?.workCls != null ? { text: `${round(r.vitals.workCls, 3)} (${r.vitals.workRuns} cold loads)`, status: status(r.vitals.workCls < 0.05) } : { text: 'not measured' },
  );
  // Budgets: /login from issue 6; /jobs and /work from issue 17 ("Scale").
  const JS_BUDGET_KB: Record<string, number> = { '/login': 200, '/jobs': 180, '/work': 150 };
  for (const [page, budget] of Object.entries(JS_BUDGET_KB)) {
    row(`Initial JavaScript of ${page}, gzip`, `< ${budget} KB`, (r) => {
      const j = r.browser?.initialJs[page];
      if (!j) return { text: 'not measured' };
      return {
        text: `${round(j.gzipBytes / 1024, 1)} KB (${j.files} files, ${round(j.rawBytes / 1024, 0)} KB raw${j.landed !== page ? `; ended on ${j.landed}` : ''})`,
        status: status(j.gzipBytes < budget * 1024),
      };
    });
  }
  const kb = (bytes: number) => `${round(bytes / 1024, 1)} KB`;
  row("Field: repeat visit of /work on slow 3G (400 kbit/s, 400 ms RTT): navigation → My Work usable", '< 2 s', (r) => {
    const f = r.field;
    if (f?.repeatVisitMs == null) return { text: 'not measured' };
    return { text: `${ms(f.repeatVisitMs, 0)} (mark 'work-list-visible'; ${f.workTickets} open tickets; ${f.repeatRuns} visits)`, status: status(f.repeatVisitMs < 2000) };
  });
  row('  bytes over the network on that repeat visit: on the wire (DevTools encodedDataLength)', '< 50 KB', (r) => {
    const f = r.field;
    if (f?.repeatWireBytes == null || f.repeatBytes == null) return { text: 'not measured' };
    const bytes = Math.max(f.repeatWireBytes, f.repeatBytes);
    return {
      text: `${kb(f.repeatWireBytes)} (${kb(f.repeatBytes)}; API replies ${kb(f.repeatApiBytes ?? 0)} as sent; their JSON gzipped with zlib ${kb(f.repeatApiGzipBytes ?? 0)})`,
      status: status(bytes < 50 * 1024),
    };
  });
  row('Field: reload of /work offline: navigation → My Work usable', '< 1 s', (r) =>
    r.field?.offlineReloadMs != null ? { text: `${ms(r.field.offlineReloadMs, 0)} (${r.field.offlineRuns} reloads)`, status: status(r.field.offlineReloadMs < 1000) } : { text: 'not measured' },
  );
  row('Field: 12-megapixel photo (4000×3000 JPEG, quality 92) through the app\'s resize: original → queued for upload', '≤ 1/4', (r) => {
    const p = r.field?.photo;
    if (!p) return { text: 'not measured' };
    const ratio = p.uploadedBytes / p.originalBytes;
    return {
      text: `${kb(p.originalBytes)} → ${kb(p.uploadedBytes)} (${p.width}×${p.height} ${p.type}): 1/${round(1 / ratio, 1)}`,
      status: status(ratio <= 0.25),
    };
  });
  row('Field: 50 notes queued offline, synced (online → "All changes synced")', '< 5 s (PGlite)', (r) => {
    const f = r.field;
    if (f?.syncMs == null) return { text: 'not measured' };
    const allArrived = f.syncArrived.every((n) => n === 50);
    return {
      text: `${ms(f.syncMs, 0)} (${f.syncRuns} run${f.syncRuns === 1 ? '' : 's'}; notes on the server: ${f.syncArrived.join(', ')} of 50)`,
      status: r.kind === 'pglite' ? status(f.syncMs < 5000 && allArrived) : allArrived ? 'n/a' : 'not met',
    };
  });
  row('Server peak RSS: load test / import (VmHWM at the end)', '', (r) =>
    r.rss ? { text: `${round(r.rss.loadMB, 0)} MB / ${round(r.rss.importMB, 0)} MB (${round(r.rss.hwmMB, 0)} MB)` } : { text: 'not measured' },
  );
  return rows;
}

function machine() {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT }).toString().trim();
    if (dirty) commit += ' (with uncommitted changes)';
  } catch {
    // not a git checkout
  }
  return {
    date: new Date().toISOString().replace('T', ' ').slice(0, 16) + ' UTC',
    cpus: `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'}`,
    memory: `${round(os.totalmem() / 2 ** 30, 1)} GiB`,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    load: os.loadavg().map((v) => round(v, 1)).join(' / '),
    commit,
  };
}

function render(all: DbResults[], rows: Row[], mach: ReturnType<typeof machine>, loadAfter: string): { text: string; md: string } {
  const kinds = all.map((r) => r.kind);
  const head = ['Measure', ...kinds.map((k) => (k === 'pglite' ? 'PGlite' : 'PostgreSQL')), 'Budget'];
  const cellText = (c: { text: string; status?: Status } | undefined) => (c ? (c.status ? `${c.text} — ${c.status}` : c.text) : '');
  const body = rows.map((r) => [r.measure, ...kinds.map((k) => cellText(r.cells[k])), r.budget]);
  const widths = head.map((h, i) => Math.min(90, Math.max(h.length, ...body.map((b) => b[i].length))));
  const line = (cols: string[]) => cols.map((c, i) => c.padEnd(widths[i])).join(' │ ');
  const text = [line(head), widths.map((w) => '─'.repeat(w)).join('─┼─'), ...body.map(line)].join('\n');

  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const m0 = all[0].manifest;
  const md = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (bench/run.ts); data from `npm run bench:data` (bench/data.ts). Medians over',
    `repeated runs: ${RUNS} load-test runs of ${DURATION} s with ${CONNECTIONS} connections (autocannon, after a 1 s warm-up;`,
    `${unreadBodiesSkipped ? 'it decodes only the replies a test reads' : '**it decoded every reply: see bench/lib/load-client.ts**'}),`,
    `${QUICK ? 1 : RUNS} imports, ${QUICK ? 2 : 5} browser loads; field mode: ${FIELD_VISITS} repeat visits and offline reloads of My Work,`,
    `${FIELD_SYNCS} sync${FIELD_SYNCS === 1 ? '' : 's'} of 50 notes.${QUICK ? ' **Quick mode: smaller data, fewer runs.**' : ''}`,
    '',
    `- date: ${mach.date}`,
    `- machine: ${mach.cpus}, ${mach.memory} memory, ${mach.os}; load average at start ${mach.load}, at end ${loadAfter}`,
    `- node: ${mach.node}`,
    `- commit: ${mach.commit}`,
    `- data: ${m0.counts.jobs} jobs (one of ${m0.bigJobTickets} tickets × 4 tasks, 1 note, 1 work order), ${m0.counts.crew} crew members, ${m0.counts.units} units, ${m0.counts.tickets} tickets in all; workbook ${m0.workbook.rows} rows (${round(m0.workbook.bytes / 1024, 0)} KB)`,
    '',
    `| ${head.map(esc).join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...body.map((b) => `| ${b.map(esc).join(' | ')} |`),
    '',
    '## How to read it',
    '',
    '- Load tests run against the real server (`node --import tsx src/server/main.ts`, `NODE_ENV=production`) as a',
    '  child process; autocannon runs in the bench process on the same machine, so both share the CPUs.',
    '- "Bare SQL" is the exact statements the route sent (captured from drizzle\'s logger during one request,',
    '  session check included) replayed directly on the driver against the same database: reads with the',
    '  route\'s own parallelism, the ticket save in order inside a transaction that is rolled back. The ratio',
    `  is route p50 ÷ bare-SQL p50, both at ${CONNECTIONS} concurrent: what Fastify, validation, mapping and JSON add.`,
    "  A read route's bare SQL is replayed after the bench's in-process writes (saves, the invoice), on the",
    '  state its load test reads: new row versions elsewhere change what the same statements cost (decision 065).',
    '- `GET /jobs/{id}` checks a fingerprint of the job\'s rows (one statement) and serves the reply it built',
    '  after the last change (src/server/plugins/reply-cache.ts); every client of the load test reads the',
    '  same unchanged job, so its row is the steady state. The "rebuilt" row is the first read after each',
    '  save of one ticket (PUT /tickets/): the kept reply is rebuilt from the changed ticket\'s row (decision',
    '  027), read alone and by 10 clients at once (who share one rebuild); its bare SQL is the statements of',
    '  such a rebuild. The load test sends `Accept-Encoding: gzip, deflate, br` as',
    '  browsers do, so replies come compressed: the job page once per change of the job, every other API reply',
    '  over 1 KB as it is sent (@fastify/compress, docs/deploy.md).',
    '- PGlite is one connection in one process: the bare SQL is timed in the bench process before the server',
    '  starts (the server would otherwise hold the data folder). The p50 budget is stated for PostgreSQL.',
    '- Statements per request are counted in process (buildApp + app.inject) by `queryStats` (src/server/db/client.ts).',
    '- The map exports are timed in process from `app.inject` to the whole reply (session check, the job, its located',
    '  tickets with their work orders and unit codes, the file built and sent); the bench job has coordinates on 6 of',
    '  every 7 tickets. Their statements per request include the session check.',
    '- The import is timed from the PUT /jobs/ request to its reply (the workbook was uploaded beforehand with the',
    '  signed-upload flow); "exceljs alone" is `new ExcelJS.Workbook().xlsx.load(buffer)` on the same file.',
    '- Browser figures come from the marks the tickets page sets (`tickets-table-visible`, measure `tickets-sort`);',
    '  initial JavaScript is every script a fresh load of the page fetches, each gzipped with zlib.',
    `- Field figures (bench/lib/field.ts) are those of ${BENCH_FOREMAN}, the bench foreman with the fewest open tickets`,
    '  (the count is in the row), in Chromium at 390 × 844 px. A first visit of /work installs the service worker',
    '  (navigator.serviceWorker.ready, the page controlled) and keeps My Work and its first 200 tickets on the device;',
    '  only the visits after it are measured. Slow 3G is CDP `Network.emulateNetworkConditions` (400 kbit/s each',
    '  way, 400 ms latency) on the page; offline is Playwright\'s offline emulation (page and service worker).',
    '  "Usable" is the `work-list-visible` mark My Work sets when its list first paints with data (the copy on the',
    '  device, before the server\'s fresh answer). Each measured visit comes 16 s after the last one, when that copy',
    '  is older than the app\'s 15 s freshness, so it pays for My Work\'s refresh as a visit later in the day does.',
    '  Bytes are counted until the network is quiet, two ways: every byte the server sent, on a TCP relay the browser',
    '  goes through (bench/lib/wire.ts; it also sees the browser\'s update check of /sw.js, which DevTools reports',
    '  for no page), and CDP `Network.loadingFinished` `encodedDataLength` (headers included) of the page\'s requests',
    '  not answered by the service worker or a cache, plus the worker\'s own. The API replies are compressed by the',
    '  app (br or gzip as the browser asks); beside their size as sent is their JSON gzipped with zlib, for scale.',
    '- The photo is made with sharp (fine gaussian grain, so it weighs what a phone\'s does) and set on the "Take photo"',
    '  input of the phone\'s ticket view offline; its size is the queued blob\'s in IndexedDB (`linecrew-offline`,',
    '  store `outbox`). The 50 notes are typed into 5 tickets through the same view offline (10 each, a fresh',
    '  browser context per run); the time runs in the page from the `online` event (sent to the page as a phone',
    '  gets it: Chromium 150\'s emulation drops it after a navigation) to the status line reading',
    '  "All changes synced", and the API must then hold exactly those 50 notes.',
    '',
    ...(all.some((r) => r.notes.length)
      ? ['## Notes from this run', '', ...all.flatMap((r) => r.notes.map((n) => `- ${r.kind}: ${n}`)), '']
      : []),
  ].join('\n');
  return { text, md };
}

async function main() {
  if (args.scale !== undefined) {
    if (args.scale !== 'large') throw new Error('--scale takes one value: large');
    const mach = machine();
    const f = await benchLarge();
    const section = renderLarge(f, mach, os.loadavg().map((v) => round(v, 1)).join(' / '));
    console.log(`\n${section}\n`);
    if (!args['no-write']) {
      const file = path.join(ROOT, 'docs/benchmarks.md');
      writeFileSync(file, withLargeSection(readFileSync(file, 'utf8'), section));
      log('large section written to docs/benchmarks.md');
    }
    return;
  }
  const wanted = typeof args.db === 'string' ? [args.db as Kind] : (['pglite', ...(process.env.BENCH_DATABASE_URL ? ['postgres'] : [])] as Kind[]);
  for (const k of wanted) if (k !== 'pglite' && k !== 'postgres') throw new Error(`--db must be pglite or postgres, not ${k}`);
  const mach = machine();
  const webNotes: string[] = [];
  if (!args['skip-browser']) process.env.BENCH_WEB_OK = ensureWebBuilt(webNotes) ? '1' : '0';
  const all: DbResults[] = [];
  for (const kind of wanted) {
    const r = await benchDatabase(kind);
    r.notes.unshift(...webNotes);
    all.push(r);
    log(`${kind}: done in ${round(r.seconds, 0)} s`);
  }
  const rows = buildRows(all);
  const { text, md } = render(all, rows, mach, os.loadavg().map((v) => round(v, 1)).join(' / '));
  console.log(`\n${text}\n`);
  for (const r of all) for (const n of r.notes) console.log(`note (${r.kind}): ${n}`);
  if (!args['no-write']) {
    // The large section (--scale large) is another run's: kept as it is.
    writeFileSync(path.join(ROOT, 'docs/benchmarks.md'), withLargeSection(md));
    log('written to docs/benchmarks.md');
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
