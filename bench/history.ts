/**
 * `npm run bench:history` (docs/product/records.md §1, decision 051): only what recording the history costs, in process on a
 * fresh copy of the bench data (made by `npm run bench:data` when missing), PGlite unless
 * `--db postgres` (with BENCH_DATABASE_URL). Prints one line per figure; writes nothing.
 *
 *   options: --saves N (ticket saves, default 12) --imports N (imports of the workbook, default 3)
 *            --quick (the quick data set)
 *
 * The same figures as the history rows of `npm run bench` (bench/lib/history.ts), but the
 * import is timed in process here too, so both ratios come from one short run.
 */
import { existsSync } from 'node:fs';
import { buildApp } from '../src/server/app';
import { generateData } from './data';
import { BENCH_PASSWORD, benchTarget, dropRun, parseArgs, prepareRun, readManifest, round, type Kind } from './lib/common';
import { measureImportHistory, measureSaveHistory, type Inject } from './lib/history';
import { openRunInProcess } from './lib/in-process';

const args = parseArgs(process.argv.slice(2));
const QUICK = Boolean(args.quick);
const kind = (typeof args.db === 'string' ? args.db : 'pglite') as Kind;
const SAVES = Math.max(2, Number(args.saves ?? 12));
const IMPORTS = Math.max(1, Number(args.imports ?? 3));

async function main() {
  const t = benchTarget(kind, QUICK);
  let m = readManifest(t);
  if (!m || !existsSync(m.workbook.path)) {
    m = await generateData(t, QUICK ? { jobs: 500, bigJobTickets: 1000, workbookRows: 2000, log: console.log } : { jobs: 5000, bigJobTickets: 5000, workbookRows: 10_000, log: console.log });
  }
  await prepareRun(t);
  const { database, ctx } = await openRunInProcess(t);
  try {
    const app = await buildApp({ ...ctx, logger: false });
    await app.ready();
    try {
      const login = await app.inject({ method: 'POST', url: '/api/v1/crew/login', payload: { email: m.adminEmail, password: BENCH_PASSWORD } });
      if (login.statusCode !== 200) throw new Error(`bench sign-in failed: ${login.statusCode} ${login.body}`);
      const token = login.json().token as string;
      const inject: Inject = (method, url, payload) =>
        app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload: payload as object } : {}) });

      const save = await measureSaveHistory(ctx, inject, m, SAVES);
      const x = save.saveMs / Math.max(0.1, save.saveMs - save.saveHistoryMs);
      console.log(`ticket save (${kind}, median of ${SAVES - 1}): whole ${round(save.saveMs, 1)} ms, history part ${round(save.saveHistoryMs, 1)} ms (${round((100 * save.saveHistoryMs) / save.saveMs, 0)} %); whole ÷ without ${round(x, 2)}×`);

      const imp = await measureImportHistory(ctx, inject, m, IMPORTS);
      const y = imp.importMs / Math.max(0.1, imp.importMs - imp.importEntriesMs);
      console.log(
        `import of ${m.workbook.rows.toLocaleString('en-US')} rows → ${imp.importTickets.toLocaleString('en-US')} tickets (${kind}, median of ${Math.max(1, IMPORTS - 1)}): whole ${round(imp.importMs, 0)} ms, history part ${round(imp.importEntriesMs, 0)} ms (${round((100 * imp.importEntriesMs) / imp.importMs, 0)} %); whole ÷ without ${round(y, 2)}×`,
      );
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    await dropRun(t).catch(() => {});
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
