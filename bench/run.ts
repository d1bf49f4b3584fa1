/**
 * `npm run bench`: one table of medians over repeated runs, printed and written to
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
 *
 * The parts, one job each, in bench/run/: options.ts (the command line), database.ts (one
 * database: in-process.ts, then server.ts with load-test.ts and rebuilt.ts), rows.ts and report.ts
 * (the table), large.ts and large-report.ts (--scale large), benchmarks-file.ts (docs/benchmarks.md
 * part by part: each run replaces its own and keeps the figures measured for the decisions).
 */
import { round, type Kind } from './lib/common';
import { benchDatabase } from './run/database';
import type { DbResults } from './run/figures';
import { loadNow, machine } from './run/format';
import { benchLarge } from './run/large';
import { writeBenchmarks } from './run/benchmarks-file';
import { renderLarge } from './run/large-report';
import { args, log } from './run/options';
import { render } from './run/report';
import { buildRows } from './run/rows';
import { ensureWebBuilt } from './run/web-build';

async function main() {
  if (args.scale !== undefined) {
    if (args.scale !== 'large') throw new Error('--scale takes one value: large');
    const mach = machine();
    const f = await benchLarge();
    const section = renderLarge(f, mach, loadNow());
    console.log(`\n${section}\n`);
    if (!args['no-write']) {
      writeBenchmarks({ large: section });
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
  const { text, md } = render(all, rows, mach, loadNow());
  console.log(`\n${text}\n`);
  for (const r of all) for (const n of r.notes) console.log(`note (${r.kind}): ${n}`);
  if (!args['no-write']) {
    // The large section (--scale large) and the figures measured for the decisions are kept.
    writeBenchmarks({ table: md });
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
