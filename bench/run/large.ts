import { performance } from 'node:perf_hooks';
import { and, eq, sql as sqlText } from 'drizzle-orm';
import { buildApp } from '../../src/server/app';
import { users } from '../../src/server/db/schema/index';
import { hashPassword } from '../../src/server/modules/auth/passwords';
import { memoryOf, rssSampler, startServer } from '../../src/server/test/server-process';
import { BENCH_PASSWORD, benchTarget, dropRun, http, median, prepareRun, readManifest, repeat, round, serverEnv, type Manifest } from '../lib/common';
import { openRunInProcess } from '../lib/in-process';
import { measureInvoice, type InvoiceFigures } from '../lib/invoices';
import { capture, replayOnce, replayUnderLoad } from '../lib/sql';
import { withSql, type LoadFigures, type SqlFigure } from './figures';
import { loadTest } from './load-test';
import { args, CONNECTIONS, DURATION, log, PORT } from './options';

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
export interface LargeJobFiles {
  /** GET /jobs/{id}/export.xlsx?option=2 and ?option=units; GET /jobs/{id}/geojson. */
  xlsxAllMs: number | null;
  xlsxUnitsMs: number | null;
  geojsonMs: number | null;
  invoice: InvoiceFigures | null;
}

export interface LargeFigures {
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

/**
 * `npm run bench -- --scale large`: the budgets of docs/product/scale.md §3 on the ten-year data of
 * §1 (PostgreSQL only): each route's statements replayed as bare SQL in process, the exports of the
 * big job, then 10 clients per route on the real server, and an invoice of the big job last.
 */
export async function benchLarge(): Promise<LargeFigures> {
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
  const sqlOf: Record<string, SqlFigure | null> = {};
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
      // Exports and an invoice of the big job (docs/product/scale.md §3): bounded by the job, so
      // they must not grow with the company's ten years — one client, in process.
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
