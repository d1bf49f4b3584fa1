import { and, asc, eq, sql as sqlText } from 'drizzle-orm';
import { buildApp } from '../../src/server/app';
import { queryStats } from '../../src/server/db/client';
import { tickets, units, users } from '../../src/server/db/schema/index';
import { hashPassword } from '../../src/server/modules/auth/passwords';
import { BENCH_FOREMAN, BENCH_PASSWORD, median, repeat, type Manifest, type Target } from '../lib/common';
import { measureSaveHistory, type HistoryFigures } from '../lib/history';
import { exceljsAloneSeconds } from '../lib/import';
import { openRunInProcess } from '../lib/in-process';
import { measureInvoice, type InvoiceFigures } from '../lib/invoices';
import { capture, replayOnce, replayUnderLoad, type Statement } from '../lib/sql';
import { COLD_ROUTE, PRODUCTION_ROUTE, type Phase1, type StatementCounts } from './figures';
import { timeCsvExport, timeMapExports } from './in-process-files';
import { CONNECTIONS, DURATION, QUICK } from './options';

/**
 * Phase 1 of one database, in process (buildApp + app.inject on the run's copy): SQL statements
 * per GET /jobs/{id}, the bare SQL of each load-tested route replayed on the driver, the CSV and
 * map exports, an invoice, the history's cost, and exceljs reading the workbook alone.
 */
export async function phase1(t: Target, m: Manifest): Promise<Phase1> {
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

    const exportMs = await timeCsvExport(inject, m).catch((e: unknown) => {
      notes.push(`export: ${(e as Error).message}`);
      return null;
    });
    const mapExport = await timeMapExports(inject, m).catch((e: unknown) => {
      notes.push(`map export: ${(e as Error).message}`);
      return null;
    });

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
