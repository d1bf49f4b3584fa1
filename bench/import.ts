/**
 * `npm run bench:import`: only the workbook-import rows of `npm run bench`, measured the same way
 * (bench/lib/import.ts) on a fresh copy of the bench data, in a minute or two: exceljs alone on
 * the workbook, then the real server started and the workbook imported `--runs` times (the first
 * after the start is its own figure). Nothing is written to docs/benchmarks.md.
 *
 *   npm run bench:import -- [--db pglite|postgres] [--runs N (default 3)] [--port P]
 *                           [--prof DIR (the server's CPU profile: node --cpu-prof)]
 *
 * Data comes from `npm run bench:data` (not made here). The bench's import runs after its load
 * tests, so its first import meets a server whose other routes are warm; here it comes right after
 * the start: a first import measured here is, if anything, the colder one.
 */
import path from 'node:path';
import { withBenchServer } from './lib/bench-server';
import { benchTarget, parseArgs, readManifest, round, type Kind } from './lib/common';
import { exceljsAloneSeconds, importFigures, timeImports } from './lib/import';

const args = parseArgs(process.argv.slice(2));
const runs = Math.min(10, Math.max(1, Number(args.runs ?? 3)));
const port = args.port === undefined ? undefined : Number(args.port);
const log = (m: string) => console.log(`[bench:import ${new Date().toISOString().slice(11, 19)}] ${m}`);

async function main() {
  const t = benchTarget(typeof args.db === 'string' ? (args.db as Kind) : undefined);
  const m = readManifest(t);
  if (!m) throw new Error(`no bench data at ${t.manifestPath}: run npm run bench:data first`);
  const nodeArgs = typeof args.prof === 'string' ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.prof)}`] : [];
  let exceljsSeconds = 0;
  const prepare = async () => {
    exceljsSeconds = await exceljsAloneSeconds(m);
    log(`exceljs alone: ${exceljsSeconds.toFixed(2)} s`);
  };
  // stopGraceMs: SIGTERM, with time to exit by itself, so that --cpu-prof writes its profile.
  await withBenchServer(t, { port, nodeArgs, stopGraceMs: 30_000, prepare }, async ({ origin, login }) => {
    const done = await timeImports(origin, await login(m.adminEmail), m, runs, log);
    if (!done) throw new Error('GET /jobs does not answer 200');
    const f = importFigures(done, m, exceljsSeconds);
    console.log(
      JSON.stringify(
        {
          db: t.kind,
          rows: m.workbook.rows,
          tickets: f.tickets,
          first: { seconds: round(f.first.seconds, 2), healthMaxMs: round(f.first.healthMaxMs, 0), healthFailures: f.first.healthFailures },
          after: {
            seconds: round(f.seconds, 2),
            exceljsSeconds: round(exceljsSeconds, 2),
            ratio: round(f.seconds / exceljsSeconds, 2),
            healthMaxMs: round(f.healthMaxMs, 0),
            healthP99Ms: round(f.healthP99Ms, 0),
            healthSamples: f.healthSamples,
            healthFailures: f.healthFailures,
          },
          each: done.map((r) => round(r.seconds, 2)),
        },
        null,
        2,
      ),
    );
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
